import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { expectNoAxeViolations } from "./axe";
import { createCheckout, sandboxPayments } from "./journey";

test("'Choose my bank on the next page' needs no Terms here and opens the provider's bank choice in the chosen country", async ({
  page,
  request,
}) => {
  const reference = `hosted-${Date.now()}`;
  const checkoutId = await createCheckout(request, { reference });
  await page.goto(`/checkout/${checkoutId}`);
  await page.getByRole("radio", { name: "Choose my bank on the next page" }).check();
  await expect(page.getByRole("checkbox", { name: /Terms and Conditions/ })).toHaveCount(0);
  await expect(page.getByRole("radiogroup", { name: "Your bank" })).toHaveCount(0);
  await expect(
    page.getByText("You will choose your bank and accept the payment service's terms on the next page."),
  ).toBeVisible();
  await page.getByRole("combobox", { name: "Country of your bank" }).selectOption("LV");
  await expectNoAxeViolations(page);

  await page.getByRole("button", { name: /^Pay/ }).click();
  await page.waitForURL(/localhost:\d+\/login\//);
  await expect(page.getByRole("heading", { name: "Choose your bank" })).toBeVisible();
  await expect(page.getByRole("combobox", { name: "Country" })).toHaveValue("LV");
  const [payment] = await sandboxPayments(request, reference);
  expect(payment?.bankId).toBeNull();
});

/** Pays a new checkout by card on the provider's card page with `card`; back on our landing. */
async function payByCard(page: Page, request: APIRequestContext, reference: string, card: string) {
  const checkoutId = await createCheckout(request, { reference });
  await page.goto(`/checkout/${checkoutId}`);
  await page.getByRole("radio", { name: "Pay by card" }).check();
  await expect(
    page.getByText("You will enter your card details and accept the payment service's terms on the next page."),
  ).toBeVisible();
  await expect(page.getByTestId("consent-from")).toHaveText("Your card, on the next page");
  await expectNoAxeViolations(page);

  await page.getByRole("button", { name: /^Pay/ }).click();
  await page.waitForURL(/localhost:\d+\/login\//);
  await expect(page.getByRole("heading", { name: "Pay by card" })).toBeVisible();
  await page.getByLabel("Card number").fill(card);
  await page.getByLabel("Expiry date (MM/YY)").fill("12/39");
  await page.getByLabel("Security code (CVC)").fill("123");
  await page.getByLabel("Name on card").fill("Test Payer");
  await page.getByRole("button", { name: /^Pay/ }).click();
  await page.waitForURL(new RegExp(`/checkout/${checkoutId}/return`));
}

test("card: the provider's card page takes the test card and the payment is received", async ({ page, request }) => {
  const reference = `card-${Date.now()}`;
  await payByCard(page, request, reference, "4111 1111 1111 1111");
  await expect(page.getByRole("heading", { name: "Payment received" })).toBeVisible();
  // The payer paid by card: the landing speaks of the card, not of a bank.
  const card = page.getByRole("region", { name: "Payment received" });
  await expect(card).toContainText("Your card payment is confirmed.");
  await expect(card).not.toContainText(/bank/i);
  expect((await sandboxPayments(request, reference))[0]?.method).toBe("card");
});

test("card declined: the landing says the card was declined and offers another card or the bank", async ({
  page,
  request,
}) => {
  await payByCard(page, request, `card-declined-${Date.now()}`, "4000 0000 0000 0002");
  await expect(page.getByRole("heading", { name: "Payment failed" })).toBeVisible();
  const card = page.getByRole("region", { name: "Payment failed" });
  await expect(card).toContainText("Your card was declined.");
  await expect(card).toContainText("No money was taken from your card.");
  await expect(card).not.toContainText(/your bank|another bank/i);
  await expectNoAxeViolations(page);
});

test("hybrid: the provider's page offers bank or card", async ({ page, request }) => {
  const reference = `hybrid-${Date.now()}`;
  const checkoutId = await createCheckout(request, { reference });
  await page.goto(`/checkout/${checkoutId}`);
  await page.getByRole("radio", { name: "Bank or card: choose on the next page" }).check();
  await expect(page.getByTestId("consent-from")).toHaveText("Bank or card, on the next page");
  await expectNoAxeViolations(page);

  await page.getByRole("button", { name: /^Pay/ }).click();
  await page.waitForURL(/localhost:\d+\/login\//);
  await expect(page.getByRole("heading", { name: "Choose how to pay" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Pay by bank" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Pay by card" })).toBeVisible();
  expect((await sandboxPayments(request, reference))[0]?.method).toBe("hybrid");
});
