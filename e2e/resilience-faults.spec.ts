import { expect, test, type APIRequestContext } from "@playwright/test";
import { createCheckout, decideAtBank, merchantView, payWithBank } from "./journey";

/**
 * The provider misbehaving (the sandbox's fault switch, lib/sandbox/README.md): a timeout and a
 * slow answer on payment start, and an outage of its status API while the payer waits on the
 * landing page. The payer gets a clear, retryable message, never a stack or a code, and the status
 * recovers by itself once the provider does. (A plain provider error on Pay is in checkout-safety.)
 */
const SANDBOX = process.env.SANDBOX_URL ?? "http://localhost:3101";

async function setFault(request: APIRequestContext, fault: Record<string, unknown>) {
  expect((await request.post(`${SANDBOX}/_sandbox/faults`, { data: fault })).status()).toBe(200);
}

async function providerPayments(request: APIRequestContext, reference: string) {
  return (
    (await (await request.get(`${SANDBOX}/_sandbox/payments?endToEndId=${encodeURIComponent(reference)}`)).json()) as {
      data: { id: string; statusGroup: string }[];
    }
  ).data;
}

test.afterEach(async ({ request }) => {
  await setFault(request, { mode: "none" });
});

test("a provider that never answers: the payer is told to try again, and the retry works", async ({
  page,
  request,
}) => {
  test.setTimeout(60_000);
  const reference = `timeout-${Date.now()}`;
  const checkoutId = await createCheckout(request, { reference });
  await page.goto(`/checkout/${checkoutId}`);
  await page.getByRole("radio", { name: "Swedbank", exact: true }).check();
  await page.getByRole("checkbox", { name: /Terms and Conditions/ }).check();
  // POST only: the worker's and other pages' status reads of /pis/payment/... must not use it up.
  await setFault(request, { mode: "timeout", paths: ["/pis/payment"], methods: ["POST"], count: 1 });
  await page.getByRole("button", { name: /^Pay/ }).click();

  // PIS_TIMEOUT_MS (15 s) later: a plain message, no code, and the form is usable again.
  const error = page.getByRole("alert", { name: "Payment error" });
  await expect(error).toContainText("Please try again", { timeout: 30_000 });
  await expect(error).not.toContainText(/provider_|timeout|50\d|stack/i);
  expect((await merchantView(request, checkoutId)).status).not.toBe("processing");

  await error.getByRole("button", { name: "Try again" }).click();
  await page.waitForURL(/localhost:\d+\/login\//);
  // The timed-out call did create a payment at the provider, but its confirmLink never reached
  // anyone; the retry is the one the payer uses.
  expect((await providerPayments(request, reference)).length).toBeLessThanOrEqual(2);
});

test("a slow provider: Pay waits, says it is busy, and makes exactly one payment", async ({ page, request }) => {
  const reference = `slow-${Date.now()}`;
  const checkoutId = await createCheckout(request, { reference });
  await page.goto(`/checkout/${checkoutId}`);
  await page.getByRole("radio", { name: "Swedbank", exact: true }).check();
  await page.getByRole("checkbox", { name: /Terms and Conditions/ }).check();
  await setFault(request, { mode: "slow", delayMs: 2500, paths: ["/pis/payment"], methods: ["POST"], count: 1 });
  const pay = page.locator("button[type=submit]");
  await pay.click();
  // While the provider takes its time the button is disabled and says what is happening.
  await expect(pay).toBeDisabled();
  await expect(pay).not.toHaveText(/^Pay/);
  await pay.click({ timeout: 500, force: true }).catch(() => {}); // an impatient second click
  await page.waitForURL(/localhost:\d+\/login\//, { timeout: 20_000 });
  expect(await providerPayments(request, reference)).toHaveLength(1);
});

test("the provider's status API down while the payer waits: the landing page waits calmly, then shows the outcome", async ({
  page,
  request,
}) => {
  const reference = `status-down-${Date.now()}`;
  const checkoutId = await createCheckout(request, { reference });
  await page.goto(`/checkout/${checkoutId}`);
  await payWithBank(page);
  // Every status question to the provider fails from here on.
  await setFault(request, { mode: "error", paths: ["/pis/payment/"] });
  await decideAtBank(page, "Approve", "pending");
  await page.waitForURL(new RegExp(`/checkout/${checkoutId}/return`));
  const status = page.getByRole("status");
  await expect(
    status
      .getByRole("heading", { level: 2 })
      .or(page.getByRole("heading", { level: 1 }))
      .first(),
  ).toBeVisible();
  // A bare 500, not one inside the order's reference (it ends in a timestamp, which can hold "500").
  await expect(page.locator("body")).not.toContainText(/internal_error|provider_|SystemError|\b500\b/);
  // The status endpoint itself still answers (from our database) while the provider is down.
  const polled = await request.get(`/api/checkouts/${checkoutId}/status`);
  expect(polled.status()).toBe(200);
  expect(((await polled.json()) as { final: boolean }).final).toBe(false);

  // The provider recovers and the bank completes the payment: the page turns paid by itself.
  await setFault(request, { mode: "none" });
  const [payment] = await providerPayments(request, reference);
  expect(
    (
      await request.post(`${SANDBOX}/_sandbox/payments/${payment!.id}/status`, { data: { bankStatus: "ACSC" } })
    ).status(),
  ).toBe(200);
  await expect(status.getByRole("heading", { name: "Payment received" })).toBeVisible({ timeout: 20_000 });
  expect((await merchantView(request, checkoutId)).status).toBe("paid");
});
