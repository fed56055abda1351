import { expect, test, type APIRequestContext } from "@playwright/test";
import { expectNoAxeViolations } from "./axe";
import { createCheckout, decideAtBank, merchantView, payWithBank } from "./journey";

const SANDBOX = process.env.SANDBOX_URL ?? "http://localhost:3101";

async function providerPayments(request: APIRequestContext, reference: string): Promise<unknown[]> {
  const res = await request.get(`${SANDBOX}/_sandbox/payments?endToEndId=${encodeURIComponent(reference)}`);
  expect(res.status()).toBe(200);
  return ((await res.json()) as { data: unknown[] }).data;
}

test("Pay with the Terms unticked says what is missing and focuses the checkbox", async ({ page, request }) => {
  const checkoutId = await createCheckout(request);
  await page.goto(`/checkout/${checkoutId}`);
  const pay = page.getByRole("button", { name: /^Pay/ });
  await expect(pay).toHaveAccessibleDescription("To pay, choose your bank and accept the Terms and Conditions.");

  await page.getByRole("radio", { name: "Swedbank", exact: true }).check();
  await expect(pay).toHaveAccessibleDescription("To pay, accept the Terms and Conditions.");
  await pay.click();

  const errors = page.getByRole("alert", { name: "Form errors" });
  await expect(errors).toContainText("Accept the Terms and Conditions");
  await expect(errors).not.toContainText("Choose your bank");
  const terms = page.getByRole("checkbox", { name: /Terms and Conditions/ });
  await expect(terms).toBeFocused();
  await expect(terms).toHaveAttribute("aria-invalid", "true");
  await expectNoAxeViolations(page);
  expect((await merchantView(request, checkoutId)).attempts).toHaveLength(0);

  await terms.check();
  await expect(errors).toHaveCount(0);
  await expect(pay).not.toHaveAttribute("aria-describedby", /.+/);
});

test("a link from anywhere but our own pages cannot choose for the payer: no country, bank or 'Remember' from its query", async ({
  page,
  request,
}, info) => {
  const checkoutId = await createCheckout(request, { customerId: `cust-link-${Date.now()}` });
  const crafted = `${info.project.use.baseURL}/checkout/${checkoutId}?lang=en&refused=rate_limited&choice=here&country=LV&bank=SWEDBANK_LV_SAND&remember=on`;
  const nothingChosen = async () => {
    await expect(page.getByRole("radiogroup", { name: "Your bank" })).toBeVisible();
    await expect(page.getByRole("combobox", { name: "Country of your bank" })).toHaveValue("LT");
    await expect(page.getByRole("radiogroup", { name: "Your bank" }).getByRole("radio", { checked: true })).toHaveCount(
      0,
    );
    await expect(
      page.getByRole("checkbox", { name: "Remember this bank account for faster payments" }),
    ).not.toBeChecked();
  };

  // Pasted into the address bar, or opened from a mail app: no site sent the payer here.
  await page.goto(crafted);
  await nothingChosen();

  // Followed from another site's page.
  await page.goto("about:blank");
  await page.setContent(`<a href="${crafted}">Pay for your order</a>`);
  await page.getByRole("link", { name: "Pay for your order" }).click();
  await page.waitForURL(/\/checkout\//);
  await nothingChosen();
});

test("a link from anywhere but our own pages cannot make the page say what did not happen", async ({
  page,
  request,
}) => {
  const checkoutId = await createCheckout(request);
  const notices = [
    ["refused=already_paid", "This order is already paid."],
    ["refused=checkout_expired", "This checkout has expired."],
    ["saved=linked", "Your bank account is saved."],
    ["stopped=1", "The unfinished payment was stopped."],
  ];
  for (const [query, text] of notices) {
    await page.goto(`/checkout/${checkoutId}?lang=en&${query}`);
    await expect(page.getByRole("button", { name: /^Pay/ })).toBeVisible();
    await expect(page.getByText(text!), query).toHaveCount(0);
  }
  // Followed from another site's page.
  await page.goto("about:blank");
  await page.setContent(
    `<a href="${process.env.E2E_APP_URL}/checkout/${checkoutId}?lang=en&refused=already_paid">Your order</a>`,
  );
  await page.getByRole("link", { name: "Your order" }).click();
  await page.waitForURL(/\/checkout\//);
  await expect(page.getByRole("button", { name: /^Pay/ })).toBeVisible();
  await expect(page.getByText("This order is already paid.")).toHaveCount(0);
});

test("Pay with nothing chosen focuses the bank list first", async ({ page, request }) => {
  const checkoutId = await createCheckout(request);
  await page.goto(`/checkout/${checkoutId}`);
  await page.getByRole("button", { name: /^Pay/ }).click();
  await expect(page.getByRole("alert", { name: "Form errors" })).toContainText("Choose your bank");
  await expect(page.getByRole("radio", { name: "Swedbank", exact: true })).toBeFocused();
  await expect(page.getByRole("radiogroup", { name: "Your bank" })).toHaveAttribute("aria-invalid", "true");
  await expectNoAxeViolations(page);
});

test("a double click on Pay makes exactly one provider payment", async ({ page, request }) => {
  const reference = `dbl-${Date.now()}`;
  const checkoutId = await createCheckout(request, { reference });
  await page.goto(`/checkout/${checkoutId}`);
  // Hold the start until the checks below are done, so the second click lands while the first is
  // in flight and the page cannot leave for the bank during them (a fixed delay raced axe on a
  // busy machine).
  let posts = 0;
  let release = () => {};
  const released = new Promise<void>((r) => (release = r));
  await page.route(/\/api\/checkouts\/[^/]+\/payments$/, async (route) => {
    posts += 1;
    await released;
    await route.continue();
  });
  await page.getByRole("radio", { name: "Swedbank", exact: true }).check();
  await page.getByRole("checkbox", { name: /Terms and Conditions/ }).check();
  const pay = page.getByRole("button", { name: /^Pay/ });
  await pay.dblclick();

  // In flight: the button is disabled and says where the payer is going.
  const leaving = page.getByRole("button", { name: "Taking you to your bank…" });
  await expect(leaving).toBeDisabled();
  await expectNoAxeViolations(page);
  release();

  await page.waitForURL(/localhost:\d+\/login\//);
  expect(posts).toBe(1);
  expect(await providerPayments(request, reference)).toHaveLength(1);
  expect((await merchantView(request, checkoutId)).attempts).toHaveLength(1);
});

test("Back from the bank shows the payment in flight, not a fresh Pay button; another bank can then be chosen", async ({
  page,
  request,
}) => {
  const reference = `back-${Date.now()}`;
  const checkoutId = await createCheckout(request, { reference });
  await page.goto(`/checkout/${checkoutId}`);
  await payWithBank(page, "Swedbank");

  await page.goBack();
  await page.waitForURL(new RegExp(`/checkout/${checkoutId}$`));
  await expect(page.getByRole("heading", { name: "Your payment is in progress" })).toBeVisible();
  await expect(page.getByText("You started paying €24.90 from Swedbank.")).toBeVisible();
  await expect(page.getByRole("button", { name: /^Pay/ })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "I have approved it — check status" })).toHaveAttribute(
    "href",
    `/checkout/${checkoutId}/return`,
  );
  await expectNoAxeViolations(page);

  await page.getByRole("button", { name: "Choose another bank" }).click();
  await expect(page.getByText("The unfinished payment was stopped. You can now choose another bank.")).toBeFocused();
  await payWithBank(page, "SEB");
  await expect(page.getByRole("heading", { name: "Log in to SEB" })).toBeVisible();
  expect(await providerPayments(request, reference)).toHaveLength(2);
});

test("back from the bank after it accepted the payment, the page offers no other bank, only its status", async ({
  page,
  request,
}) => {
  const checkoutId = await createCheckout(request);
  await page.goto(`/checkout/${checkoutId}?lang=en`);
  await payWithBank(page, "Swedbank");
  await decideAtBank(page, "Leave pending");
  await page.waitForURL(new RegExp(`/checkout/${checkoutId}/return`));
  await expect(page.getByRole("heading", { name: "Your bank is processing the payment" })).toBeVisible();

  await page.goto(`/checkout/${checkoutId}?lang=en`);
  await expect(page.getByRole("heading", { name: "Your payment is in progress" })).toBeVisible();
  await expect(page.getByText("Status: your bank is processing the payment.")).toBeVisible();
  await expect(page.getByRole("link", { name: "I have approved it — check status" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Choose another bank" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /^Pay/ })).toHaveCount(0);
  await expectNoAxeViolations(page);
});

test("'I have approved it — check status' leads to the landing page", async ({ page, request }) => {
  const checkoutId = await createCheckout(request);
  await page.goto(`/checkout/${checkoutId}`);
  await payWithBank(page, "Swedbank");
  await page.goBack();
  await page.getByRole("link", { name: "I have approved it — check status" }).click();
  await page.waitForURL(new RegExp(`/checkout/${checkoutId}/return$`));
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
});

test("a provider error becomes a plain message with a retry that works", async ({ page, request }) => {
  const reference = `fault-${Date.now()}`;
  const checkoutId = await createCheckout(request, { reference });
  await page.goto(`/checkout/${checkoutId}`);
  await page.getByRole("radio", { name: "Swedbank", exact: true }).check();
  await page.getByRole("checkbox", { name: /Terms and Conditions/ }).check();

  const fault = await request.post(`${SANDBOX}/_sandbox/faults`, {
    data: { mode: "error", paths: ["/platform/v0.3/pis/payment"], methods: ["POST"], count: 1 },
  });
  expect(fault.status()).toBe(200);
  await page.getByRole("button", { name: /^Pay/ }).click();

  const error = page.getByRole("alert", { name: "Payment error" });
  await expect(error).toContainText(
    "We could not reach the payment service just now. No money was taken. Please try again.",
  );
  await expect(error).not.toContainText(/provider_error|500|code/i);
  await expect(error).toBeFocused();
  await expect(page.getByRole("button", { name: /^Pay/ })).toBeEnabled();
  await expectNoAxeViolations(page);

  await error.getByRole("button", { name: "Try again" }).click();
  await page.waitForURL(/localhost:\d+\/login\//);
  await expect(page.getByRole("heading", { name: "Log in to Swedbank" })).toBeVisible();
});

test("a paid checkout says so instead of offering to pay again", async ({ page, request }) => {
  const checkoutId = await createCheckout(request);
  await page.goto(`/checkout/${checkoutId}`);
  await payWithBank(page, "Swedbank");
  await decideAtBank(page, "Approve");
  await expect(page.getByRole("heading", { name: "Payment received" })).toBeVisible();
  await expectNoAxeViolations(page);

  await page.goto(`/checkout/${checkoutId}`);
  await expect(page.getByRole("heading", { name: "This order is already paid" })).toBeVisible();
  await expect(page.getByRole("button", { name: /^Pay/ })).toHaveCount(0);
  await expectNoAxeViolations(page);
});
