import { expect, type APIRequestContext, type Page } from "@playwright/test";

/** The documented sandbox defaults (README): the merchant API key and the test bank login. */
export const MERCHANT_KEY = "dev-merchant-key";
export const BANK_LOGIN = { username: "test", password: "1234" };

/** Creates a checkout the way a merchant backend does, over the API. */
export async function createCheckout(request: APIRequestContext, over: Record<string, string> = {}): Promise<string> {
  const res = await request.post("/api/checkouts", {
    headers: { Authorization: `Bearer ${MERCHANT_KEY}` },
    data: { amount: "24.90", currency: "EUR", description: "Order from the e2e shop", reference: `e2e-${Date.now()}`, returnUrl: "http://localhost:3100/", country: "LT", ...over },
  });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { id: string }).id;
}

/** What the merchant's backend sees, straight from our database (no refresh from the provider). */
export async function merchantView(request: APIRequestContext, checkoutId: string) {
  const res = await request.get(`/api/checkouts/${checkoutId}`, { headers: { Authorization: `Bearer ${MERCHANT_KEY}` } });
  expect(res.status()).toBe(200);
  return (await res.json()) as { status: string; attempts: { statusGroup: string | null }[] };
}

/** On our checkout page: choose a bank, accept the Terms, press Pay; ends on the bank's login page. */
export async function payWithBank(page: Page, bank = "Swedbank") {
  await page.getByRole("radio", { name: bank, exact: true }).check();
  await page.getByRole("checkbox", { name: /Terms and Conditions/ }).check();
  await page.getByRole("button", { name: /^Pay/ }).click();
  // The sandbox's hosted page, on whichever port this project's sandbox runs.
  await page.waitForURL(/localhost:\d+\/login\//);
}

/** At the sandbox bank: log in with the test credentials and press Approve or Cancel. */
export async function decideAtBank(page: Page, decision: "Approve" | "Cancel") {
  await page.getByLabel("Username").fill(BANK_LOGIN.username);
  await page.getByLabel("Password").fill(BANK_LOGIN.password);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page.getByRole("heading", { name: "Confirm payment" })).toBeVisible();
  await page.getByRole("button", { name: decision }).click();
}
