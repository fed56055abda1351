import type { ChildProcess } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { killGroup, root, startNextApp, startSandbox, stderrOf } from "./process-group";

/**
 * The app is killed (SIGKILL, no chance to clean up) in the middle of payments and started again
 * on the same database: nothing is lost, nothing is stuck that should move, and no payment is
 * made twice at the provider. The provider is a separate system that keeps running through the
 * crash, so the sandbox runs on its own here (persisting to SANDBOX_DATA_DIR) and only the app's
 * process group is killed. Own ports (3400/3401) and data directories.
 */
const APP_PORT = Number(process.env.E2E_CRASH_PORT || 3400);
const SANDBOX_PORT = APP_PORT + 1;
const APP = `http://localhost:${APP_PORT}`;
const SANDBOX = `http://localhost:${SANDBOX_PORT}`;
const PGLITE_DIR = ".data/e2e-crash";
const SANDBOX_DIR = ".data/e2e-crash-sandbox";
const KEY = "dev-merchant-key";

test.describe.configure({ mode: "serial", timeout: 120_000 });

let sandbox: ChildProcess | undefined;
let app: ChildProcess | undefined;

async function startApp(request: APIRequestContext) {
  app = await startNextApp(request, {
    port: APP_PORT,
    sandboxPort: SANDBOX_PORT,
    pgliteDir: PGLITE_DIR,
    // A short provider timeout and a busy worker: an initiation cut off by the crash is closed
    // 20 s after it began (timeout + 15 s margin), and the test can watch the payer pay again.
    env: { PIS_TIMEOUT_MS: "5000", WORKER_INTERVAL_MS: "1000" },
  });
}

async function createCheckout(request: APIRequestContext, reference: string): Promise<string> {
  const res = await request.post(`${APP}/api/checkouts`, {
    headers: { Authorization: `Bearer ${KEY}` },
    data: { amount: "31.40", currency: "EUR", description: "Crash test", reference, returnUrl: `${APP}/` },
  });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { id: string }).id;
}

async function providerPayments(request: APIRequestContext, reference: string) {
  const res = await request.get(`${SANDBOX}/_sandbox/payments?endToEndId=${encodeURIComponent(reference)}`);
  return ((await res.json()) as { data: { id: string; statusGroup: string }[] }).data;
}

async function merchantView(request: APIRequestContext, id: string) {
  const res = await request.get(`${APP}/api/checkouts/${id}`, { headers: { Authorization: `Bearer ${KEY}` } });
  expect(res.status()).toBe(200);
  return (await res.json()) as {
    status: string;
    attempts: { statusGroup: string | null; providerPaymentId?: string | null }[];
  };
}

test.beforeAll(async ({ request }) => {
  rmSync(path.join(root, PGLITE_DIR), { recursive: true, force: true });
  rmSync(path.join(root, SANDBOX_DIR), { recursive: true, force: true });
  sandbox = await startSandbox(request, SANDBOX_PORT, { SANDBOX_DATA_DIR: SANDBOX_DIR });
  await startApp(request);
});

test.afterAll(async () => {
  await killGroup(app, "SIGTERM");
  await killGroup(sandbox, "SIGTERM");
});

test("killed after the payment started, approved at the bank while down: after restart the checkout is paid, once", async ({
  request,
}) => {
  const reference = `crash-a-${Date.now()}`;
  const id = await createCheckout(request, reference);
  const start = await request.post(`${APP}/api/checkouts/${id}/payments`, {
    data: { method: "bank", bankId: "SWEDBANK_LT_SAND", termsAccepted: true, attemptKey: `crash-a-${Date.now()}` },
  });
  expect(start.status()).toBe(200);

  await killGroup(app, "SIGKILL");
  const [payment] = await providerPayments(request, reference);
  expect(payment).toBeDefined();
  // The payer approves at the bank while we are down: the provider's webhook finds nobody.
  expect(
    (
      await request.post(`${SANDBOX}/_sandbox/payments/${payment!.id}/status`, { data: { bankStatus: "ACSC" } })
    ).status(),
  ).toBe(200);

  await startApp(request);
  // The landing page's polling asks the provider; the webhook retries would also get there.
  await expect
    .poll(
      async () =>
        ((await (await request.get(`${APP}/api/checkouts/${id}/status`)).json()) as { status: string }).status,
      { timeout: 30_000 },
    )
    .toBe("paid");
  const view = await merchantView(request, id);
  expect(view.status).toBe("paid");
  expect(view.attempts).toHaveLength(1);
  expect(await providerPayments(request, reference)).toHaveLength(1);
  // A payer pressing Pay again (a new attempt key) is told it is paid, and makes no second payment.
  const again = await request.post(`${APP}/api/checkouts/${id}/payments`, {
    data: { method: "bank", termsAccepted: true, attemptKey: `crash-a2-${Date.now()}` },
  });
  expect(again.status()).toBe(409);
  expect(await providerPayments(request, reference)).toHaveLength(1);
});

test("killed while the provider call is in flight: after restart nothing is lost, and the repeated Pay is told to try again once the cut-off start cannot be alive", async ({
  request,
}) => {
  const reference = `crash-b-${Date.now()}`;
  const id = await createCheckout(request, reference);
  const attemptKey = `crash-b-${Date.now()}`;
  await request.post(`${SANDBOX}/_sandbox/faults`, {
    data: { mode: "slow", delayMs: 8000, paths: ["/pis/payment"], methods: ["POST"], count: 1 },
  });
  const inFlight = request
    .post(`${APP}/api/checkouts/${id}/payments`, {
      data: { method: "bank", bankId: "SWEDBANK_LT_SAND", termsAccepted: true, attemptKey },
      timeout: 30_000,
    })
    .catch((e: Error) => e);
  // The provider has made the payment (a slow answer is processed first); our answer is still pending.
  await expect
    .poll(async () => (await providerPayments(request, reference)).length, { timeout: 10_000, intervals: [100] })
    .toBe(1);
  await killGroup(app, "SIGKILL");
  expect((await inFlight) instanceof Error).toBe(true); // the payer's browser saw the connection drop
  await request.post(`${SANDBOX}/_sandbox/faults`, { data: { mode: "none" } });

  await startApp(request);
  // Nothing lost: the attempt row written before the provider call is there, the checkout is in flight.
  const view = await merchantView(request, id);
  expect(view.attempts).toHaveLength(1);
  expect(view.status).toBe("processing");
  // The payer's Pay repeated (the same key) waits while the cut-off start could still be alive, then
  // is told to try again: the attempt is closed, the checkout open, and still one provider payment.
  const retry = await request.post(`${APP}/api/checkouts/${id}/payments`, {
    data: { method: "bank", termsAccepted: true, attemptKey },
    timeout: 30_000,
  });
  expect(retry.status(), await retry.text()).toBe(409);
  expect(((await retry.json()) as { code: string }).code).toBe("attempt_failed");
  expect(await providerPayments(request, reference)).toHaveLength(1);
  const status = await request.get(`${APP}/api/checkouts/${id}/status`);
  expect(((await status.json()) as { status: string }).status).toBe("open");

  // Try again starts a payment (the first provider payment never reached the payer, so it cannot be confirmed).
  const again = await request.post(`${APP}/api/checkouts/${id}/payments`, {
    data: { method: "bank", termsAccepted: true, attemptKey: `crash-b3-${Date.now()}` },
  });
  expect(again.status(), await again.text()).toBe(200);
  const paidAgain = ((await again.json()) as { confirmLink: string }).confirmLink;
  expect(paidAgain).toMatch(/^http:\/\/localhost:\d+\/login\//);
  expect((await merchantView(request, id)).attempts).toHaveLength(2);
});

test("SIGTERM while a payment start waits on the provider: the start completes, new connections are refused, the server stops", async ({
  request,
}) => {
  const reference = `term-${Date.now()}`;
  const id = await createCheckout(request, reference);
  await request.post(`${SANDBOX}/_sandbox/faults`, {
    data: { mode: "slow", delayMs: 4000, paths: ["/pis/payment"], methods: ["POST"], count: 1 },
  });
  const inFlight = request.post(`${APP}/api/checkouts/${id}/payments`, {
    data: { method: "bank", bankId: "SWEDBANK_LT_SAND", termsAccepted: true, attemptKey: `term-${Date.now()}` },
    timeout: 30_000,
  });
  // The provider has made the payment; our answer to the payer is still on its way.
  await expect
    .poll(async () => (await providerPayments(request, reference)).length, { timeout: 10_000, intervals: [100] })
    .toBe(1);

  const exited = new Promise<number | null>((resolve) => app!.once("exit", (code) => resolve(code)));
  process.kill(-app!.pid!, "SIGTERM");
  // No new connection is taken (each check on a connection of its own: one kept alive from before
  // the signal may still carry a request, which is not what this asks)...
  await expect
    .poll(
      async () =>
        (
          await request.get(`${APP}/api/health`, { timeout: 1000, headers: { Connection: "close" } }).catch(() => null)
        )?.status() ?? "refused",
      { timeout: 5_000, intervals: [100] },
    )
    .toBe("refused");
  // ...the one in flight is answered in full...
  const start = await inFlight;
  expect(start.status()).toBe(200);
  expect(((await start.json()) as { confirmLink: string }).confirmLink).toMatch(/^http:\/\/localhost:\d+\/login\//);
  // ...and then the server stops by itself, with the code for a SIGTERM.
  expect(await exited).toBe(143);
  expect(stderrOf(app!)).not.toMatch(/PGlite is closed|Failed query/);

  // Nothing was lost: after a restart the attempt holds the provider's payment.
  await startApp(request);
  const view = await merchantView(request, id);
  expect(view.status).toBe("processing");
  expect(view.attempts).toHaveLength(1);
  expect(view.attempts[0]!.statusGroup).not.toBeNull(); // the provider's answer was recorded
  await request.post(`${SANDBOX}/_sandbox/faults`, { data: { mode: "none" } });
});
