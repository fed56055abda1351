import type { ChildProcess } from "node:child_process";
import { rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { signInToBackoffice } from "./journey";
import { openDb } from "../lib/db/client";
import { notifications } from "../lib/db/schema";
import { RETRY_DELAYS_MS } from "../lib/checkout/notifications";
import { expectNoAxeViolations } from "./axe";
import { killGroup, root, startNextApp, startSandbox } from "./process-group";

/**
 * A merchant whose notify URL failed for two days, until the outbox gave its `checkout.paid` up.
 * The merchant fixes its endpoint and staff press Send again: the notification, the same one, is
 * delivered. Two days of retries do not fit in a test, so the app is killed (kill -9) after the
 * first failure and the row is given the state the outbox leaves a given-up one in; the app's own
 * embedded database is locked to one process (ADR 15), hence an app, sandbox and merchant of this
 * file's own, on E2E_NOTIFY_PORT (default 3450) and the two ports after it.
 */
const APP_PORT = Number(process.env.E2E_NOTIFY_PORT || 3450);
const SANDBOX_PORT = APP_PORT + 1;
const MERCHANT_PORT = APP_PORT + 2;
const APP = `http://localhost:${APP_PORT}`;
const SANDBOX = `http://localhost:${SANDBOX_PORT}`;
const PGLITE_DIR = ".data/e2e-notify";
const KEY = "dev-merchant-key";

test.describe.configure({ mode: "serial", timeout: 180_000 });
test.use({ baseURL: APP });

let sandbox: ChildProcess | undefined;
let app: ChildProcess | undefined;
let merchant: Server | undefined;
// What the merchant's endpoint answers, and the delivery ids it was sent.
const endpoint = { answer: 500, received: [] as string[] };

async function startApp(request: APIRequestContext) {
  app = await startNextApp(request, { port: APP_PORT, sandboxPort: SANDBOX_PORT, pgliteDir: PGLITE_DIR });
}

test.beforeAll(async ({ request }) => {
  rmSync(path.join(root, PGLITE_DIR), { recursive: true, force: true });
  merchant = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      endpoint.received.push(String(req.headers["checkout-delivery-id"]));
      res.writeHead(endpoint.answer).end();
    });
  });
  await new Promise<void>((r) => merchant!.listen(MERCHANT_PORT, "127.0.0.1", r));
  sandbox = await startSandbox(request, SANDBOX_PORT);
  await startApp(request);
});

test.afterAll(async () => {
  await killGroup(app, "SIGTERM");
  await killGroup(sandbox, "SIGTERM");
  merchant?.close();
});

test("staff send a given-up notification again once the merchant's endpoint works: the same notification is delivered", async ({
  page,
  request,
}) => {
  // A paid checkout: the payer approved at the bank, the provider's webhook told the app.
  const reference = `notify-${Date.now()}`;
  const created = await request.post("/api/checkouts", {
    headers: { Authorization: `Bearer ${KEY}` },
    data: {
      amount: "18.20",
      currency: "EUR",
      description: "Notified order",
      reference,
      returnUrl: `${APP}/`,
      notifyUrl: `http://127.0.0.1:${MERCHANT_PORT}/notify`,
    },
  });
  expect(created.status()).toBe(200);
  const { id: checkoutId } = (await created.json()) as { id: string };
  const start = await request.post(`/api/checkouts/${checkoutId}/payments`, {
    data: { method: "bank", bankId: "SWEDBANK_LT_SAND", termsAccepted: true, attemptKey: `k-${checkoutId}` },
  });
  expect(start.status()).toBe(200);
  const paymentId = new URL(((await start.json()) as { confirmLink: string }).confirmLink).pathname.split("/")[2]!;
  const forced = await request.post(`${SANDBOX}/_sandbox/payments/${paymentId}/status`, {
    data: { bankStatus: "ACSC" },
  });
  expect(forced.status()).toBe(200);

  // The merchant's endpoint fails the first delivery.
  await expect.poll(() => endpoint.received.length, { timeout: 30_000 }).toBeGreaterThan(0);
  const [deliveryId] = endpoint.received;

  // Two days later, as the outbox leaves it after its last retry.
  await killGroup(app, "SIGKILL");
  const handle = await openDb({ pgliteDir: PGLITE_DIR });
  try {
    const given = await handle.db
      .update(notifications)
      .set({
        attempts: RETRY_DELAYS_MS.length + 1,
        lastStatus: 500,
        lastError: "HTTP 500 (gave up)",
        nextAttemptAt: sql`now() + interval '100 years'`,
        lockedUntil: null,
      })
      .where(eq(notifications.checkoutId, checkoutId))
      .returning({ id: notifications.id });
    expect(given.map((n) => n.id)).toEqual([deliveryId]);
  } finally {
    await handle.close();
  }
  await startApp(request);
  const before = endpoint.received.length;

  await signInToBackoffice(page);
  await page.goto(`/backoffice/checkouts/${checkoutId}`);
  const table = page.getByRole("table", { name: /Notifications sent to the merchant/ });
  const row = table.getByRole("row", { name: /checkout\.paid/ });
  await expect(row).toContainText("Given up");
  await expect(row).toContainText("HTTP 500: HTTP 500 (gave up)");
  await expectNoAxeViolations(page);
  // Given up, nothing sends it by itself.
  expect(endpoint.received.length).toBe(before);

  endpoint.answer = 200;
  await row.getByRole("button", { name: "Send checkout.paid again" }).click();
  const result = page.getByRole("status", { name: "Send again result" });
  await expect(result).toHaveText("Sending it again now. The table shows when the merchant has it.");
  // The page reads again until the merchant has it; the button went with the "given up".
  await expect(row).not.toContainText("Given up", { timeout: 20_000 });
  await expect(row.getByRole("cell").nth(2).locator("time")).toBeVisible({ timeout: 20_000 });
  await expect(row.getByRole("button")).toHaveCount(0);
  await expect(result.getByText(/Sending it again now/)).toBeFocused();
  await expectNoAxeViolations(page);
  // Once, and the same notification: the merchant drops a repeat by its id.
  expect(endpoint.received.slice(before)).toEqual([deliveryId]);
});
