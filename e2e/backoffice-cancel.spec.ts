import { expect, test, type Page } from "@playwright/test";
import { expectNoAxeViolations } from "./axe";
import { createCheckout, forceProviderStatus, merchantView, payerAtTheBank, signInToBackoffice } from "./journey";

/*
 * Staff cancel checkouts from the back office's checkout page (the merchant API's cancel, ADR 25):
 * asked first, told the outcome, and refused where the payer's money is already on its way.
 */

/** The payer starts a bank payment and is at the bank, not yet authorised; returns its provider id. */
const startButton = (page: Page) => page.getByRole("button", { name: "Cancel checkout", exact: true });
const timeline = (page: Page) => page.getByRole("table", { name: /Status changes/ });

test("staff cancel an open checkout by keyboard, after saying yes: the outcome is announced and focused, and the payer can no longer pay", async ({
  page,
  request,
}) => {
  const reference = `bo-cancel-${Date.now()}`;
  const checkoutId = await createCheckout(request, { reference });
  await signInToBackoffice(page);
  await page.goto(`/backoffice/checkouts/${checkoutId}`);
  await expect(startButton(page)).toBeVisible();
  await expectNoAxeViolations(page);

  // The button only asks; the question takes focus, and "No, keep it" changes nothing.
  await startButton(page).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("group", { name: /Cancel this checkout\?/ })).toBeVisible();
  await expect(page.locator("p", { hasText: "Cancel this checkout?" })).toBeFocused();
  await expectNoAxeViolations(page);
  await page.keyboard.press("Tab");
  await expect(page.getByRole("button", { name: "Yes, cancel checkout" })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(page.getByRole("button", { name: "No, keep it" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(startButton(page)).toBeFocused();
  expect((await merchantView(request, checkoutId)).status).toBe("open");

  await page.keyboard.press("Enter");
  await page.keyboard.press("Tab");
  await page.keyboard.press("Enter");
  const result = page.getByRole("status", { name: "Cancel result" });
  await expect(result).toHaveText("Checkout cancelled. The payer can no longer pay it.");
  // The button pressed has gone: focus is on the outcome that replaced it, not lost to the page.
  await expect(startButton(page)).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Yes, cancel checkout" })).toHaveCount(0);
  await expect(result.getByText("Checkout cancelled.")).toBeFocused();
  await expect(timeline(page).getByRole("row", { name: /Open to Cancelled.*Staff \(back office\)/ })).toHaveCount(1);
  await expectNoAxeViolations(page);

  // The merchant reads who did it; the payer's page takes no payment.
  const seen = await merchantView(request, checkoutId);
  expect(seen.status).toBe("cancelled");
  expect(seen.timeline.at(-1)).toMatchObject({ to: "cancelled", source: "staff" });
  await page.goto(`/checkout/${checkoutId}`);
  await expect(page.getByRole("heading", { name: "This checkout was cancelled" })).toBeVisible();
  await page.goto(`/backoffice/checkouts/${checkoutId}`);
  await expect(page.getByRole("heading", { level: 1, name: `Checkout ${reference}` })).toBeVisible();
  await expect(startButton(page)).toHaveCount(0);
});

test("a payment the payer left at the bank unauthorised is stopped, then the checkout cancelled", async ({
  page,
  request,
}) => {
  const checkoutId = await createCheckout(request, { reference: `bo-cancel-bank-${Date.now()}` });
  await payerAtTheBank(request, checkoutId);
  await signInToBackoffice(page);
  await page.goto(`/backoffice/checkouts/${checkoutId}`);
  await startButton(page).click();
  await page.getByRole("button", { name: "Yes, cancel checkout" }).click();
  await expect(page.getByRole("status", { name: "Cancel result" })).toHaveText(
    "Checkout cancelled. The payer can no longer pay it.",
  );
  await expect(timeline(page).getByRole("row", { name: /Processing to Open.*Staff/ })).toHaveCount(1);
  await expect(timeline(page).getByRole("row", { name: /Open to Cancelled.*Staff/ })).toHaveCount(1);
  const seen = await merchantView(request, checkoutId);
  expect(seen.status).toBe("cancelled");
});

test("a payment the payer authorised cannot be stopped: staff are told why, and when it is paid the button goes", async ({
  page,
  request,
}) => {
  const checkoutId = await createCheckout(request, { reference: `bo-cancel-auth-${Date.now()}` });
  const paymentId = await payerAtTheBank(request, checkoutId);
  await forceProviderStatus(request, paymentId, { bankStatus: "ACSP" });
  await signInToBackoffice(page);
  await page.goto(`/backoffice/checkouts/${checkoutId}`);
  await startButton(page).click();
  await page.getByRole("button", { name: "Yes, cancel checkout" }).click();
  const error = page.getByRole("alert", { name: "Cancel error" });
  await expect(error).toContainText("the payer has authorised a payment at the bank, and that cannot be stopped");
  // Back on the first step, with focus: nothing was cancelled.
  await expect(startButton(page)).toBeFocused();
  expect((await merchantView(request, checkoutId)).status).toBe("processing");
  await expectNoAxeViolations(page);

  // The bank completes it; the page, reading again while the payment moves, drops the button.
  await forceProviderStatus(request, paymentId, { bankStatus: "ACSC" });
  await expect(timeline(page).getByRole("row", { name: /Processing to Paid/ })).toHaveCount(1, { timeout: 20_000 });
  await expect(startButton(page)).toHaveCount(0);
});

test("a page left open after the session ended cannot cancel: the action sends to the sign-in page", async ({
  page,
  context,
  request,
}) => {
  const checkoutId = await createCheckout(request, { reference: `bo-cancel-nosession-${Date.now()}` });
  await signInToBackoffice(page);
  await page.goto(`/backoffice/checkouts/${checkoutId}`);
  await context.clearCookies();
  await startButton(page).click();
  await page.getByRole("button", { name: "Yes, cancel checkout" }).click();
  await expect(page).toHaveURL(/\/backoffice\/login/);
  expect((await merchantView(request, checkoutId)).status).toBe("open");
});
