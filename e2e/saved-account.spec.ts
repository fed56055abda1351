import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import { expectNoAxeViolations } from "./axe";
import { BANK_LOGIN, checkAgainUntilPaid, createCheckout, merchantView } from "./journey";

/**
 * Saved bank accounts (issue 7): link while paying, pay the next order in one click, nobody else
 * can use the link, it ends after 90 days (sandbox time travel) and the payer saves it again.
 * One payer's browser runs through every step, so the tests share one context and run in order.
 * This project has its own app and sandbox: moving the sandbox clock 91 days affects no one else.
 */
test.describe.configure({ mode: "serial" });

const CUSTOMER = `cust-e2e-${Date.now()}`;
const SANDBOX = process.env.E2E_SAVED_SANDBOX_URL;
const SAVED = "Your saved bank account";
let context: BrowserContext;
let page: Page;

test.beforeAll(async ({ browser }, info) => {
  context = await browser.newContext({ baseURL: info.project.use.baseURL });
  page = await context.newPage();
});
test.afterAll(() => context.close());

async function logInAndAllow(on: Page = page) {
  const page = on;
  await page.waitForURL(/localhost:\d+\/auth\//);
  await expect(page.getByRole("heading", { name: "Log in to Swedbank" })).toBeVisible();
  await page.getByLabel("Username").fill(BANK_LOGIN.username);
  await page.getByLabel("Password").fill(BANK_LOGIN.password);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page.getByRole("heading", { name: "Allow access to your account" })).toBeVisible();
  await page.getByRole("button", { name: "Allow", exact: true }).click();
}

/** At the provider's confirmation of a payment from the linked account: no login, no account choice. */
async function approveLinkedPayment(checkoutId: string, on: Page = page) {
  const page = on;
  await expect(page.getByRole("heading", { name: "Confirm payment" })).toBeVisible();
  await expect(page.getByText(/You pay from your linked Swedbank account LT/)).toBeVisible();
  await expect(page.getByLabel("Username")).toHaveCount(0);
  const paymentId = new URL(page.url()).pathname.split("/")[2]!;
  await page.getByRole("button", { name: "Approve", exact: true }).click();
  await page.waitForURL(new RegExp(`/checkout/${checkoutId}/return`));
  await checkAgainUntilPaid(page);
  return paymentId;
}

async function linkingIdOf(paymentId: string): Promise<string | null> {
  const res = await page.request.get(`${SANDBOX}/_sandbox/payments`);
  const { data } = (await res.json()) as { data: { id: string; linkingId: string | null }[] };
  return data.find((p) => p.id === paymentId)?.linkingId ?? null;
}

async function saveWhilePaying(checkoutId: string) {
  await expect(page.getByRole("radio", { name: "Swedbank", exact: true })).toBeChecked();
  await page.getByRole("checkbox", { name: /Terms and Conditions/ }).check();
  await expect(page.getByRole("checkbox", { name: "Remember this bank account for faster payments" })).toBeChecked();
  await page.getByRole("button", { name: /^Pay/ }).click();
  await logInAndAllow();
  return approveLinkedPayment(checkoutId);
}

test("the payer saves the bank account while paying, then pays the next order in one click", async ({ request }) => {
  const first = await createCheckout(request, { customerId: CUSTOMER });
  await page.goto(`/checkout/${first}`);
  await page.getByRole("radio", { name: "Swedbank", exact: true }).check();
  await page.getByRole("checkbox", { name: /Terms and Conditions/ }).check();
  await page.getByRole("checkbox", { name: "Remember this bank account for faster payments" }).check();
  await expectNoAxeViolations(page);
  await page.getByRole("button", { name: /^Pay/ }).click();
  // The provider's linking (login and consent once), then straight on to this order's payment.
  await logInAndAllow();
  const firstPayment = await approveLinkedPayment(first);
  expect(await linkingIdOf(firstPayment)).toBeTruthy();
  expect((await merchantView(request, first)).status).toBe("paid");

  const second = await createCheckout(request, { customerId: CUSTOMER, amount: "12.30" });
  await page.goto(`/checkout/${second}`);
  const saved = page.getByRole("region", { name: SAVED });
  await expect(saved.getByText("Swedbank account", { exact: true })).toBeVisible();
  await expect(saved.getByTestId("saved-iban")).toHaveText(/^LT\d\d •••• \d{4}$/);
  await expect(saved.getByTestId("saved-balance")).toHaveText("Your available balance covers this payment.");
  await expectNoAxeViolations(page);
  await saved.getByRole("button", { name: "Pay €12.30 from this account" }).click();
  const secondPayment = await approveLinkedPayment(second);
  expect(await linkingIdOf(secondPayment)).toBe(await linkingIdOf(firstPayment));
  expect((await merchantView(request, second)).status).toBe("paid");
});

test("another payer cannot use the saved account: not another browser, not another customer here", async ({
  browser,
  request,
}, info) => {
  const checkout = await createCheckout(request, { customerId: CUSTOMER });
  const stranger = await browser.newContext({ baseURL: info.project.use.baseURL });
  const theirs = await stranger.newPage();
  await theirs.goto(`/checkout/${checkout}`);
  await expect(theirs.getByRole("radio", { name: "Swedbank", exact: true })).toBeVisible();
  await expect(theirs.getByRole("region", { name: SAVED })).toHaveCount(0);
  // Asking the API for the saved account directly gets nothing either.
  const res = await theirs.request.post(`/api/checkouts/${checkout}/payments`, {
    data: { method: "bank", savedAccount: true, termsAccepted: false, attemptKey: "stranger-attempt-1" },
  });
  expect(res.status()).toBe(409);
  expect(await res.json()).toMatchObject({ code: "no_saved_account" });
  await stranger.close();

  // The same browser, another of the shop's customers (a shared computer).
  const someoneElse = await createCheckout(request, { customerId: `${CUSTOMER}-other` });
  await page.goto(`/checkout/${someoneElse}`);
  await expect(page.getByRole("radio", { name: "Swedbank", exact: true })).toBeVisible();
  await expect(page.getByRole("region", { name: SAVED })).toHaveCount(0);
});

test("a linking sent to someone else and finished in their browser saves their account for no one", async ({
  browser,
  request,
}, info) => {
  const customer = `${CUSTOMER}-sent`;
  const checkout = await createCheckout(request, { customerId: customer });
  await page.goto(`/checkout/${checkout}`);
  await page.getByRole("radio", { name: "Swedbank", exact: true }).check();
  await page.getByRole("checkbox", { name: /Terms and Conditions/ }).check();
  await page.getByRole("checkbox", { name: "Remember this bank account for faster payments" }).check();
  // The customer does not follow the provider's link (it works in one browser only): they send it on.
  let sent = "";
  // Known only once the request is aborted: unrouting before that could let it through to the
  // sandbox, which would count the link as used.
  await page.route(/localhost:\d+\/auth\//, async (r) => {
    await r.abort();
    sent = r.request().url();
  });
  await page.getByRole("button", { name: /^Pay/ }).click();
  await expect.poll(() => sent).not.toBe("");
  // "Link your bank to get a discount": someone else opens the link and consents at their bank.
  const other = await browser.newContext({ baseURL: info.project.use.baseURL });
  const theirs = await other.newPage();
  await theirs.goto(sent);
  await logInAndAllow(theirs);
  await theirs.waitForURL(new RegExp(`/checkout/${checkout}\\?saved=elsewhere`));
  const notSaved = "Your bank account was not saved: it was linked in another browser than the one where you started.";
  await expect(theirs.getByText(notSaved)).toBeVisible();
  await expectNoAxeViolations(theirs);
  await other.close();

  // The customer who sent it gets no one-click account from it, and is told why.
  await page.goto(`/checkout/${checkout}?saved=elsewhere`);
  // Only now, with the aborted page gone: Chromium reloads an error page by itself after a while,
  // which would have used the link in this browser first.
  await page.unrouteAll();
  await expect(page.getByText(notSaved)).toBeVisible();
  const next = await createCheckout(request, { customerId: customer });
  await page.goto(`/checkout/${next}`);
  await expect(page.getByRole("radio", { name: "Swedbank", exact: true })).toBeVisible();
  await expect(page.getByRole("region", { name: SAVED })).toHaveCount(0);
});

test("after 90 days the link has ended: the payer is told, saves the account again, and one click works again", async ({
  request,
}) => {
  const clock = await request.post(`${SANDBOX}/_sandbox/clock`, { data: { advanceMs: 91 * 24 * 3600 * 1000 } });
  expect(clock.status()).toBe(200);

  const checkout = await createCheckout(request, { customerId: CUSTOMER });
  await page.goto(`/checkout/${checkout}`);
  await expect(
    page.getByText(/Your saved Swedbank account can no longer be used for one-click payments/),
  ).toBeVisible();
  await expect(page.getByRole("region", { name: SAVED })).toHaveCount(0);
  await expectNoAxeViolations(page);
  // The bank is chosen and "Remember" ticked already: accept the Terms and pay.
  await saveWhilePaying(checkout);

  const next = await createCheckout(request, { customerId: CUSTOMER });
  await page.goto(`/checkout/${next}`);
  await expect(
    page.getByRole("region", { name: SAVED }).getByRole("button", { name: /^Pay €24\.90 from this account$/ }),
  ).toBeVisible();
});

test("the payer forgets the saved account", async ({ request }) => {
  const checkout = await createCheckout(request, { customerId: CUSTOMER });
  await page.goto(`/checkout/${checkout}`);
  const saved = page.getByRole("region", { name: SAVED });
  await saved.getByRole("button", { name: "Forget this account" }).click();
  await expect(page.getByText("We forgot your saved bank account. Choose your bank below to pay.")).toBeFocused();
  await expect(saved).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole("radio", { name: "Swedbank", exact: true })).toBeVisible();
  await expect(page.getByRole("region", { name: SAVED })).toHaveCount(0);
  await expect(page.getByText(/can no longer be used/)).toHaveCount(0);
});

test("without JavaScript the payer saves the account while paying, pays in one click, and forgets it", async ({
  browser,
  request,
}, info) => {
  // The same payer's browser (its cookies), its scripts blocked or not yet run.
  const scriptless = await browser.newContext({
    baseURL: info.project.use.baseURL,
    javaScriptEnabled: false,
    storageState: await context.storageState(),
  });
  const p = await scriptless.newPage();

  const first = await createCheckout(request, { customerId: CUSTOMER });
  await p.goto(`/checkout/${first}?lang=en`);
  await p.getByRole("radio", { name: "Swedbank", exact: true }).check();
  const remember = p.getByRole("checkbox", { name: "Remember this bank account for faster payments" });
  await remember.check();
  // Pay without the Terms: back to the form saying so, the bank and "Remember" still chosen.
  await p.getByRole("button", { name: /^Pay/ }).click();
  await expect(p.getByText("To pay, accept the Terms and Conditions.").first()).toBeVisible();
  await expect(p.getByRole("radio", { name: "Swedbank", exact: true })).toBeChecked();
  await expect(remember).toBeChecked();
  await p.getByRole("checkbox", { name: /Terms and Conditions/ }).check();
  await p.getByRole("button", { name: /^Pay/ }).click();
  await logInAndAllow(p);
  const firstPayment = await approveLinkedPayment(first, p);
  expect(await linkingIdOf(firstPayment)).toBeTruthy();

  const second = await createCheckout(request, { customerId: CUSTOMER, amount: "7.10" });
  await p.goto(`/checkout/${second}?lang=en`);
  const saved = p.getByRole("region", { name: SAVED });
  await saved.getByRole("button", { name: "Pay €7.10 from this account" }).click();
  const secondPayment = await approveLinkedPayment(second, p);
  expect(await linkingIdOf(secondPayment)).toBe(await linkingIdOf(firstPayment));
  expect((await merchantView(request, second)).status).toBe("paid");

  const third = await createCheckout(request, { customerId: CUSTOMER });
  await p.goto(`/checkout/${third}?lang=en`);
  await saved.getByRole("button", { name: "Pay another way" }).click();
  await expect(p.getByRole("radio", { name: "Swedbank", exact: true })).toBeVisible();
  await expect(saved).toHaveCount(0);
  await p.goBack();
  await saved.getByRole("button", { name: "Forget this account" }).click();
  await expect(p.getByText("We forgot your saved bank account. Choose your bank below to pay.")).toBeVisible();
  await expect(saved).toHaveCount(0);
  await p.goto(`/checkout/${third}?lang=en`);
  await expect(p.getByRole("radio", { name: "Swedbank", exact: true })).toBeVisible();
  await expect(saved).toHaveCount(0);
  await scriptless.close();
});

test("the bank ends the consent after the page showed the account: one click tells the payer to choose a bank, and nothing is failed", async ({
  request,
}) => {
  const first = await createCheckout(request, { customerId: CUSTOMER });
  await page.goto(`/checkout/${first}`);
  await page.getByRole("radio", { name: "Swedbank", exact: true }).check();
  await page.getByRole("checkbox", { name: /Terms and Conditions/ }).check();
  await page.getByRole("checkbox", { name: "Remember this bank account for faster payments" }).check();
  await page.getByRole("button", { name: /^Pay/ }).click();
  await logInAndAllow();
  const linking = await linkingIdOf(await approveLinkedPayment(first));

  const next = await createCheckout(request, { customerId: CUSTOMER, amount: "7.70" });
  await page.goto(`/checkout/${next}`);
  const pay = page.getByRole("region", { name: SAVED }).getByRole("button", { name: "Pay €7.70 from this account" });
  await expect(pay).toBeVisible();
  // The payer withdraws the consent in their bank's app while our page is open.
  expect((await request.post(`${SANDBOX}/_sandbox/linkings/${linking}/revoke`)).status()).toBe(200);
  await pay.click();
  // Told that the saved account can no longer be used, with the bank list to choose from.
  await expect(page.getByText(/Your saved (Swedbank )?(bank )?account can no longer be used/).first()).toBeVisible();
  await expect(page.getByRole("region", { name: SAVED })).toHaveCount(0);
  await expect(page.getByRole("radio", { name: "Swedbank", exact: true })).toBeVisible();
  await expectNoAxeViolations(page);
  // No payment was made, so none failed: the order is open, and the merchant hears of no failure.
  const view = await merchantView(request, next);
  expect(view.status).toBe("open");
  expect(view.timeline.map((e) => e.to)).not.toContain("failed");
});
