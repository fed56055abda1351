import { expect, test, type APIRequestContext, type Browser } from "@playwright/test";
import { expectNoAxeViolations } from "./axe";
import { createCheckout, decideAtBank, MERCHANT_KEY, payWithBank, signInToBackoffice } from "./journey";

/**
 * The payer at the bank in one tab, left open without deciding; then, in a second tab of the same
 * browser, they stop that payment and pay another way, as far as the bank's page.
 */
async function stoppedThenPaidAnotherWay(browser: Browser, request: APIRequestContext, baseURL: string | undefined) {
  const reference = `dup-${Date.now()}`;
  const checkoutId = await createCheckout(request, { reference });
  const context = await browser.newContext({ baseURL });
  const forgotten = await context.newPage();
  await forgotten.goto(`/checkout/${checkoutId}`);
  await payWithBank(forgotten);

  const abandon = await request.post(`/api/checkouts/${checkoutId}/payments/abandon`);
  expect(abandon.status()).toBe(200);
  const payer = await context.newPage();
  await payer.goto(`/checkout/${checkoutId}`);
  await payWithBank(payer);
  return { reference, checkoutId, context, forgotten, payer };
}

/*
 * The payer leaves a bank tab open, pays the order another way, then approves the forgotten tab
 * too: the money moved twice. The second payment is shown as a duplicate and given back in one
 * click from the back office (issue 15, ADR 13).
 */
test("a payment approved in a forgotten tab after the order was paid is flagged and refunded in one click", async ({
  browser,
  request,
}, testInfo) => {
  testInfo.setTimeout(120_000);
  const { reference, checkoutId, context, forgotten, payer } = await stoppedThenPaidAnotherWay(
    browser,
    request,
    testInfo.project.use.baseURL,
  );
  await decideAtBank(payer, "Approve");
  await expect(payer.getByRole("heading", { name: "Payment received" })).toBeVisible();

  // The forgotten tab is approved as well; the order stays paid once.
  await decideAtBank(forgotten, "Approve");
  await expect(forgotten.getByRole("heading", { name: "Payment received" })).toBeVisible();
  await expect
    .poll(async () => {
      const res = await request.get(`/api/checkouts/${checkoutId}`, {
        headers: { Authorization: `Bearer ${MERCHANT_KEY}` },
      });
      const body = (await res.json()) as { status: string; attempts: { duplicate: boolean; statusGroup: string }[] };
      return [
        body.status,
        body.attempts
          .filter((a) => a.statusGroup === "completed")
          .map((a) => a.duplicate)
          .sort(),
      ];
    })
    .toEqual(["paid", [false, true]]);

  const staff = await context.newPage();
  await signInToBackoffice(staff);
  await expect(staff.getByRole("row", { name: new RegExp(reference) })).toContainText("Paid twice");
  await staff.goto(`/backoffice/checkouts/${checkoutId}`);
  const duplicates = staff.getByRole("region", { name: "Duplicate payments" });
  await expect(duplicates).toContainText("The payer paid this order 2 times");
  await expectNoAxeViolations(staff);
  await duplicates.getByRole("button", { name: "Refund" }).click();
  await expect(duplicates.getByRole("status", { name: "Refund result" })).toContainText("Refund of €24.90 started");
  // The refund is the duplicate's: the paying payment can still be refunded in full.
  const refunds = staff.getByRole("table", { name: "Refunds of this checkout" });
  await expect(refunds.getByRole("row")).toHaveCount(2);
  await expect(staff.getByRole("region", { name: "Refunds", exact: true })).toContainText("Refundable: €24.90");
  await context.close();
});

/*
 * The payer stops a payment at the bank, pays another way, and that bank refuses; then they
 * authorise the first one after all, in the tab left open. Back from it, they are told the bank is
 * processing it, not that the payment failed, and are not offered to pay a second time.
 */
test("a payment stopped, then authorised in a forgotten tab after another failed, is shown at the bank and blocks a second payment", async ({
  browser,
  request,
}, testInfo) => {
  testInfo.setTimeout(120_000);
  const { checkoutId, context, forgotten, payer } = await stoppedThenPaidAnotherWay(
    browser,
    request,
    testInfo.project.use.baseURL,
  );
  await decideAtBank(payer, "Reject (insufficient funds)");
  await expect(payer.getByRole("heading", { name: "Payment failed" })).toBeVisible();

  await decideAtBank(forgotten, "Leave pending");
  await expect(forgotten.getByRole("heading", { name: "Your bank is processing the payment" })).toBeVisible();
  await expectNoAxeViolations(forgotten);
  const view = await request.get(`/api/checkouts/${checkoutId}`, {
    headers: { Authorization: `Bearer ${MERCHANT_KEY}` },
  });
  expect(await view.json()).toMatchObject({ status: "processing" });
  await payer.goto(`/checkout/${checkoutId}`);
  await expect(payer.getByRole("button", { name: /^Pay/ })).toHaveCount(0);
  await context.close();
});
