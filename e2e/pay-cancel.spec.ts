import { expect, test } from "@playwright/test";
import { expectNoAxeViolations } from "./axe";
import { createCheckout, decideAtBank, payWithBank } from "./journey";

test("a payer who cancels at the bank sees the payment failed and can try again", async ({ page, request }) => {
  const checkoutId = await createCheckout(request);
  await page.goto(`/checkout/${checkoutId}`);
  await payWithBank(page, "SEB");
  await decideAtBank(page, "Cancel");

  await page.waitForURL(new RegExp(`/checkout/${checkoutId}/return`));
  await expect(page.getByRole("heading", { name: "Payment failed" })).toBeVisible();
  await expectNoAxeViolations(page);

  await page.getByRole("link", { name: "Try again" }).click();
  await page.waitForURL(new RegExp(`/checkout/${checkoutId}$`));
  // The retry is a new payment attempt that reaches the bank again.
  await payWithBank(page, "Luminor");
  await decideAtBank(page, "Approve");
  await expect(page.getByRole("heading", { name: "Payment received" })).toBeVisible();
});
