import { readFileSync } from "node:fs";
import { expect, test, type APIRequestContext, type Browser, type Page } from "@playwright/test";

/** The documented sandbox defaults (README): the merchant API key and the test bank login. */
export const MERCHANT_KEY = "dev-merchant-key";
export const BANK_LOGIN = { username: "test", password: "1234" };
/** The sandbox's demo admin (README "Staff"). */
export const DEMO_ADMIN = { email: "admin@shop.example", password: "dev-backoffice" };

/** Signs in to the back office as `who` (the demo admin unless told) and waits for the checkouts. */
export async function signInToBackoffice(page: Page, who: { email: string; password: string } = DEMO_ADMIN) {
  await page.goto("/backoffice/login");
  await page.getByLabel("Email").fill(who.email);
  await page.getByLabel("Password", { exact: true }).fill(who.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL(/\/backoffice$/);
}

/**
 * Creates a checkout the way a merchant backend does, over the API, returning the payer to the
 * shop of the app the test's project runs against.
 */
export async function createCheckout(request: APIRequestContext, over: Record<string, unknown> = {}): Promise<string> {
  const res = await request.post("/api/checkouts", {
    headers: { Authorization: `Bearer ${MERCHANT_KEY}` },
    data: {
      amount: "24.90",
      currency: "EUR",
      description: "Order from the e2e shop",
      reference: `e2e-${Date.now()}`,
      returnUrl: `${test.info().project.use.baseURL ?? process.env.E2E_APP_URL}/`,
      country: "LT",
      ...over,
    },
  });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { id: string }).id;
}

/** What the merchant's backend sees, straight from our database (no refresh from the provider). */
export async function merchantView(request: APIRequestContext, checkoutId: string) {
  const res = await request.get(`/api/checkouts/${checkoutId}`, {
    headers: { Authorization: `Bearer ${MERCHANT_KEY}` },
  });
  expect(res.status()).toBe(200);
  return (await res.json()) as {
    status: string;
    attempts: { statusGroup: string | null }[];
    timeline: { to: string; source: string }[];
  };
}

/**
 * Switches the bank country on our checkout page until `shown` (something only the browser's code
 * does in answer) holds. The page keeps a choice made before it came alive (early-input.ts, tested
 * in checkout-picker.spec.ts); one made while React is in the middle of hydrating it can still be
 * lost, and a test acts at once, so the choice is made again until the page answers.
 */
export async function chooseCountry(page: Page, code: string, shown: () => Promise<void>) {
  const country = page.getByRole("combobox", { name: "Country of your bank" });
  await expect(async () => {
    await country.selectOption(code);
    await shown();
  }).toPass({ timeout: 20_000 });
}

/** On our checkout page: choose a bank, accept the Terms, press Pay; ends on the bank's login page. */
export async function payWithBank(page: Page, bank = "Swedbank") {
  await page.getByRole("radio", { name: bank, exact: true }).check();
  await page.getByRole("checkbox", { name: /Terms and Conditions/ }).check();
  await page.getByRole("button", { name: /^Pay/ }).click();
  // The sandbox's hosted page, on whichever port this project's sandbox runs.
  await page.waitForURL(/localhost:\d+\/login\//);
}

/**
 * The payer's phone, a browser of its own, opens the checkout (as its QR code does) and approves
 * a payment at the bank. The caller closes the returned context.
 */
export async function approveOnPhone(browser: Browser, baseURL: string | undefined, checkoutId: string) {
  const phone = await browser.newContext({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
    baseURL,
  });
  const page = await phone.newPage();
  await page.goto(`/checkout/${checkoutId}?lang=en`);
  await payWithBank(page);
  await decideAtBank(page, "Approve");
  return { phone, page };
}

/** At the sandbox bank: log in as a test user and press one of the decision buttons. */
export async function decideAtBank(
  page: Page,
  decision: "Approve" | "Cancel" | "Reject (insufficient funds)" | "Leave pending",
  username: "test" | "pending" = BANK_LOGIN.username as "test",
) {
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill(BANK_LOGIN.password);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page.getByRole("heading", { name: "Confirm payment" })).toBeVisible();
  await page.getByRole("button", { name: decision, exact: true }).click();
}

/** A payer who chose a bank over the payer API and is at the bank: answers the provider's payment id. */
export async function payerAtTheBank(request: APIRequestContext, checkoutId: string): Promise<string> {
  const start = await request.post(`/api/checkouts/${checkoutId}/payments`, {
    data: { method: "bank", bankId: "SWEDBANK_LT_SAND", termsAccepted: true, attemptKey: `k-${checkoutId}` },
  });
  expect(start.status()).toBe(200);
  const { confirmLink } = (await start.json()) as { confirmLink: string };
  const paymentId = new URL(confirmLink).pathname.split("/")[2]!;
  expect(paymentId).toBeTruthy();
  return paymentId;
}

/**
 * The sandbox provider of the app the running test's project uses: each app's sandbox sits as far
 * from the main one as its app from the main app (e2e/playwright.config.ts).
 */
export function sandboxUrl(): string {
  const main = new URL(process.env.E2E_APP_URL!);
  const app = new URL(test.info().project.use.baseURL ?? main.origin);
  const sandbox = new URL(process.env.SANDBOX_URL!);
  sandbox.port = String(Number(sandbox.port) + Number(app.port) - Number(main.port));
  return sandbox.origin;
}

/** The payments the sandbox provider holds for a checkout (by its reference), through its control API. */
export async function sandboxPayments(request: APIRequestContext, reference: string) {
  const res = await request.get(`${sandboxUrl()}/_sandbox/payments?endToEndId=${encodeURIComponent(reference)}`);
  expect(res.status()).toBe(200);
  return ((await res.json()) as { data: { bankId: string | null; method: string }[] }).data;
}

/** Makes the sandbox provider move a payment, through its control API (lib/sandbox/README.md). */
export async function forceProviderStatus(request: APIRequestContext, paymentId: string, body: Record<string, string>) {
  const res = await request.post(`${sandboxUrl()}/_sandbox/payments/${paymentId}/status`, { data: body });
  expect(res.status()).toBe(200);
}

/**
 * The landing without JavaScript shows what it knew when rendered, and asks the provider at most
 * every 2 s (the webhook may come first): the payer presses "Check again" until it shows the
 * payment received.
 */
export async function checkAgainUntilPaid(page: Page) {
  await expect(async () => {
    const again = page.getByRole("link", { name: "Check again" });
    if ((await again.count()) > 0) await again.click();
    await expect(page.getByRole("heading", { name: "Payment received" })).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
}

/**
 * The payer approves at the bank but never arrives back (tab closed, bank app). The approve POST is
 * made without following the bank's redirect; returns where the bank would have sent the payer.
 * (page.route cannot stop the redirected request itself: Playwright routes only a chain's first.)
 * Leave the page open afterwards: a page.close() straight after this can hang in Chromium until
 * the test times out (seen in about 1 run in 8 of webhook-only.spec.ts).
 */
export async function approveAndVanish(page: Page): Promise<string> {
  let location = "";
  await page.route(/\/approve$/, async (route) => {
    const res = await route.fetch({ maxRedirects: 0 });
    location = res.headers()["location"] ?? "";
    await route.fulfill({
      status: 200,
      contentType: "text/html",
      body: "<!doctype html><title>Closed</title><p>The payer closed the tab.</p>",
    });
  });
  await decideAtBank(page, "Approve");
  await expect.poll(() => location).not.toBe("");
  return location;
}

/** The ids of the build's server actions (Next's manifest), for tests that call them as any client could. */
export function serverActionIds(): string[] {
  const manifest = new URL("../.next/server/server-reference-manifest.json", import.meta.url);
  return Object.keys((JSON.parse(readFileSync(manifest, "utf8")) as { node: Record<string, unknown> }).node);
}

/**
 * Counts the page's own loads after the first: new documents only, not the history entry that
 * Next's router rewrites in place as the page hydrates (also a "framenavigated").
 */
export function countReloads(page: Page) {
  const seen = { reloads: 0 };
  page.on("domcontentloaded", () => seen.reloads++);
  return seen;
}

/** The payer goes to the bank, then comes back to the checkout page, which shows the payment in flight. */
export async function payThenComeBack(page: Page) {
  await payWithBank(page);
  const bankPage = page.url();
  await page.goBack();
  await expect(page.getByRole("heading", { name: "Your payment is in progress" })).toBeVisible();
  return bankPage;
}
