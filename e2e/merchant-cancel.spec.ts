import { expect, test } from "@playwright/test";
import { expectNoAxeViolations } from "./axe";
import { createCheckout, MERCHANT_KEY, payWithBank } from "./journey";

const auth = { Authorization: `Bearer ${MERCHANT_KEY}` };

test("the merchant cancels a checkout the payer is paying: the payer's page says so, and the list shows it cancelled", async ({
  page,
  request,
}) => {
  const reference = `cancel-${Date.now()}`;
  const checkoutId = await createCheckout(request, { reference });
  await page.goto(`/checkout/${checkoutId}`);
  // The payer goes to the bank and leaves it there, unapproved.
  await payWithBank(page);

  const cancelled = await request.post(`/api/checkouts/${checkoutId}/cancel`, { headers: auth });
  expect(cancelled.status()).toBe(200);
  expect(await cancelled.json()).toMatchObject({ id: checkoutId, status: "cancelled" });

  await page.goto(`/checkout/${checkoutId}`);
  await expect(page.getByRole("heading", { name: "This checkout was cancelled" })).toBeVisible();
  await expect(page.getByRole("button", { name: /^Pay/ })).toHaveCount(0);
  await expectNoAxeViolations(page);

  const listed = await request.get(`/api/checkouts?q=${reference}`, { headers: auth });
  expect(listed.status()).toBe(200);
  expect((await listed.json()).items).toEqual([
    expect.objectContaining({ id: checkoutId, reference, status: "cancelled" }),
  ]);
});
