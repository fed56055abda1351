import { expect, test } from "@playwright/test";
import { expectNoAxeViolations } from "./axe";
import { createCheckout, merchantView } from "./journey";

test("Pay without accepting the Terms is blocked with a message, and nothing is sent to the provider", async ({
  page,
  request,
}) => {
  const checkoutId = await createCheckout(request);
  await page.goto(`/checkout/${checkoutId}`);
  await page.getByRole("radio", { name: "Swedbank", exact: true }).check();
  await page.getByRole("button", { name: /^Pay/ }).click();

  const errors = page.getByRole("alert", { name: "Form errors" });
  await expect(errors).toContainText(/Terms and Conditions/);
  await expect(page.getByRole("checkbox", { name: /Terms and Conditions/ })).toBeFocused();
  await expectNoAxeViolations(page);
  expect(page.url()).toContain(`/checkout/${checkoutId}`);
  expect((await merchantView(request, checkoutId)).attempts).toHaveLength(0);
});

test("Pay without a bank says to choose one", async ({ page, request }) => {
  const checkoutId = await createCheckout(request);
  await page.goto(`/checkout/${checkoutId}`);
  await page.getByRole("button", { name: /^Pay/ }).click();
  await expect(page.getByRole("alert", { name: "Form errors" })).toContainText(/Choose your bank/);
});
