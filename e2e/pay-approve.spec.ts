import { expect, test } from "@playwright/test";
import { expectNoAxeViolations } from "./axe";
import { createCheckout, decideAtBank, merchantView, payWithBank } from "./journey";

test("a payer buys in the shop, chooses a bank, approves it and sees the payment received", async ({
  page,
  request,
}) => {
  await page.goto("/");
  await expectNoAxeViolations(page);
  await page
    .getByRole("button", { name: /^Add .* to cart$/ })
    .first()
    .click();
  await page.getByRole("button", { name: "Checkout" }).click();
  await page.waitForURL(/\/checkout\/co_[\w-]+$/);
  const checkoutId = new URL(page.url()).pathname.split("/").pop()!;

  await expect(page.getByRole("radio", { name: "Swedbank", exact: true })).toBeVisible();
  // The sandbox's project is a test project, on every API version: the payer is told so.
  await expect(page.getByText("This checkout uses a test payment project. No real money moves.")).toBeVisible();
  await expectNoAxeViolations(page);
  await payWithBank(page);
  await decideAtBank(page, "Approve");

  await page.waitForURL(new RegExp(`/checkout/${checkoutId}/return`));
  await expect(page.getByRole("heading", { name: "Payment received" })).toBeVisible();
  await expect(page.getByRole("status")).toContainText(/received/i);
  await expectNoAxeViolations(page);
  expect((await merchantView(request, checkoutId)).status).toBe("paid");
});

test("the landing page does not believe a forged statusGroup in its address", async ({ page, request }) => {
  const checkoutId = await createCheckout(request);
  await page.goto(`/checkout/${checkoutId}/return?paymentId=${"a".repeat(40)}&statusGroup=completed`);
  await expect(page.getByRole("heading", { name: "Payment received" })).toHaveCount(0);
  await expect(page.getByRole("heading", { level: 1 })).not.toHaveText("Payment received");
  expect((await merchantView(request, checkoutId)).status).toBe("open");
});
