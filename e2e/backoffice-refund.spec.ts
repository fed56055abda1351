import { expect, test } from "@playwright/test";
import { expectNoAxeViolations } from "./axe";
import { createCheckout, decideAtBank, payWithBank, sandboxPayments, sandboxUrl, signInToBackoffice } from "./journey";

/*
 * One checkout of 24.90 EUR, paid at the sandbox bank, then looked after by staff: found with the
 * filters, its timeline read, refunded in two parts, and an over-refund refused.
 */
test.describe.configure({ mode: "serial" });

const reference = `bo-${Date.now()}`;
let checkoutId = "";

test.beforeAll(async ({ browser }, testInfo) => {
  testInfo.setTimeout(90_000);
  const context = await browser.newContext({ baseURL: testInfo.project.use.baseURL });
  const page = await context.newPage();
  checkoutId = await createCheckout(context.request, { reference });
  await page.goto(`/checkout/${checkoutId}`);
  await payWithBank(page);
  await decideAtBank(page, "Approve");
  await page.waitForURL(new RegExp(`/checkout/${checkoutId}/return`));
  await expect(page.getByRole("heading", { name: "Payment received" })).toBeVisible();
  await context.close();
});

test("the paid checkout is found by status and reference, and not among failed ones", async ({ page }) => {
  await signInToBackoffice(page);
  await expect(page.getByRole("img", { name: /Stacked bar chart of checkouts per day by status/ })).toBeVisible();
  await expectNoAxeViolations(page);

  await page.getByLabel("Status", { exact: true }).selectOption("paid");
  await page.getByLabel("Reference or checkout id", { exact: true }).fill(reference);
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/status=paid/);
  const table = page.getByRole("table", { name: /Checkouts matching the filters/ });
  const row = table.getByRole("row", { name: new RegExp(reference) });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("Paid");
  await expect(row).toContainText("€24.90");
  await expectNoAxeViolations(page);

  // Narrowed further by bank and by today's date (UTC), it is still there.
  await page.getByLabel("Bank", { exact: true }).selectOption({ label: "Swedbank (LT)" });
  await page.getByLabel("From", { exact: true }).fill(new Date().toISOString().slice(0, 10));
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/[?&]bank=SWEDBANK_LT_SAND(&|$)/);
  await expect(page).toHaveURL(/[?&]from=\d{4}-\d{2}-\d{2}(&|$)/);
  await expect(page.getByRole("link", { name: reference })).toHaveCount(1);
  await page.getByLabel("From", { exact: true }).fill("");
  await page.getByLabel("Bank", { exact: true }).selectOption("");

  await page.getByLabel("Status", { exact: true }).selectOption("failed");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/status=failed/);
  await expect(page.getByText("No checkouts match these filters.")).toBeVisible();
  await expect(page.getByRole("link", { name: reference })).toHaveCount(0);

  // The search also takes the exact checkout id.
  await page.goto(`/backoffice?q=${checkoutId}`);
  await page.getByRole("link", { name: reference }).click();
  await expect(page).toHaveURL(new RegExp(`/backoffice/checkouts/${checkoutId}$`));
  await expect(page.getByRole("heading", { level: 1, name: `Checkout ${reference}` })).toBeVisible();
});

test("filters change the list without loading the page again, and Back shows the list before", async ({ page }) => {
  await signInToBackoffice(page);
  const pages: string[] = [];
  const lists: string[] = [];
  page.on("request", (r) => {
    const { pathname, search } = new URL(r.url());
    if (pathname === "/backoffice") pages.push(r.url());
    if (pathname === "/api/backoffice/checkouts") lists.push(search);
  });
  await page.getByLabel("Reference or checkout id", { exact: true }).fill(reference);
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(new RegExp(`/backoffice\\?q=${reference}$`));
  await expect(page.getByRole("table", { name: /Checkouts matching the filters/ }).getByRole("row")).toHaveCount(2);
  await expect(page.getByRole("status").filter({ hasText: "1 checkout on page 1" })).toBeAttached();
  expect(lists).toEqual([`?q=${reference}`]);

  // Back: the list seen a moment ago comes from the query cache, and the field says what it shows.
  await page.goBack();
  await expect(page).toHaveURL(/\/backoffice$/);
  await expect(page.getByLabel("Reference or checkout id", { exact: true })).toHaveValue("");
  await expect(page.getByRole("table", { name: /All checkouts/ })).toBeVisible();
  await page.goForward();
  await expect(page.getByLabel("Reference or checkout id", { exact: true })).toHaveValue(reference);
  await expect(page.getByRole("link", { name: reference })).toHaveCount(1);
  expect(lists).toHaveLength(1);
  expect(pages).toEqual([]);
});

test("the back office's JSON is refused without a staff session", async ({ request }) => {
  expect((await request.get("/api/backoffice/checkouts")).status()).toBe(401);
  const detail = await request.get(`/api/backoffice/checkouts/${checkoutId}`);
  expect(detail.status()).toBe(401);
  expect(await detail.text()).not.toContain(reference);
});

test("the detail page shows the status timeline with where each change came from", async ({ page }) => {
  await signInToBackoffice(page);
  await page.goto(`/backoffice/checkouts/${checkoutId}`);
  const timeline = page.getByRole("table", { name: /Status changes/ });
  await expect(timeline.getByRole("row", { name: /Open to Processing.*Payment start/ })).toHaveCount(1);
  await expect(
    timeline.getByRole("row", { name: /Processing to Paid .*(Landing page check|Webhook|Reconciliation)/ }),
  ).toHaveCount(1);
  const attempts = page.getByRole("table", { name: /Payment attempts/ });
  await expect(attempts).toContainText("Swedbank");
  await expect(attempts).toContainText("Completed");
  await expect(page.getByRole("table", { name: /Webhooks received/ })).toContainText("Valid");
  await expect(page.getByText("Refundable: €24.90")).toBeVisible();
  await expectNoAxeViolations(page);
});

test("staff refund part, then another part, and an amount above what is left is refused", async ({ page }) => {
  await signInToBackoffice(page);
  await page.goto(`/backoffice/checkouts/${checkoutId}`);
  const amount = page.getByLabel("Amount", { exact: true });
  await expect(amount).toHaveValue("24.90");

  await amount.fill("5.00");
  await page.getByLabel(/^Reason/).fill("One item returned");
  await page.getByRole("button", { name: "Refund" }).click();
  await expect(page.getByRole("status", { name: "Refund result" })).toHaveText("Refund of €5.00 started");
  await expect(page.getByText("Refundable: €19.90")).toBeVisible();
  await expect(amount).toHaveValue("19.90");

  await amount.fill("10");
  await page.getByRole("button", { name: "Refund" }).click();
  await expect(page.getByRole("status", { name: "Refund result" })).toHaveText("Refund of €10.00 started");
  await expect(page.getByText("Refundable: €9.90")).toBeVisible();

  await amount.fill("10.00");
  await page.getByRole("button", { name: "Refund" }).click();
  const error = page.getByRole("alert", { name: "Refund error" });
  await expect(error).toContainText("At most 9.90 EUR can still be refunded");
  await expect(amount).toHaveAttribute("aria-invalid", "true");
  await expect(amount).toHaveValue("10.00");
  await expect(page.getByText("Refundable: €9.90")).toBeVisible();

  const refunds = page.getByRole("table", { name: "Refunds of this checkout" });
  await expect(refunds.getByRole("row")).toHaveCount(3); // the header and two refunds
  await expect(refunds.getByRole("row", { name: /€5\.00.*One item returned/ })).toHaveCount(1);
  await expect(refunds.getByRole("row", { name: /€10\.00/ })).toHaveCount(1);
  await expectNoAxeViolations(page);

  // The sandbox completes refunds after a few seconds and says so by webhook; the page follows.
  await expect(refunds.getByRole("row", { name: /Completed/ })).toHaveCount(2, { timeout: 20_000 });
});

test("a malformed amount is refused with a message naming the field", async ({ page }) => {
  await signInToBackoffice(page);
  await page.goto(`/backoffice/checkouts/${checkoutId}`);
  // Checked in the browser with the server action's own rules: nothing is sent.
  const posts: string[] = [];
  page.on("request", (r) => {
    if (r.method() === "POST") posts.push(r.url());
  });
  await page.getByLabel("Amount", { exact: true }).fill("ten");
  await page.getByRole("button", { name: "Refund" }).click();
  await expect(page.getByRole("alert", { name: "Refund error" })).toContainText("Enter the amount as a number");
  await expect(page.getByLabel("Amount", { exact: true })).toHaveAttribute("aria-invalid", "true");
  expect(posts).toEqual([]);
  // What only the server knows (the currency's decimals) comes back onto the same field.
  await page.getByLabel("Amount", { exact: true }).fill("1.234");
  await page.getByRole("button", { name: "Refund" }).click();
  await expect(page.getByRole("alert", { name: "Refund error" })).toContainText(
    "Amount EUR allows at most 2 decimal places",
  );
});

test("a refund made at the provider itself is shown as made there, and what can be refunded here falls", async ({
  page,
  request,
}) => {
  // Someone refunds in the provider's own tools, not through this shop: only its webhook tells us.
  const [payment] = (await sandboxPayments(request, reference)) as unknown as { id: string }[];
  const made = await request.post(`${sandboxUrl()}/platform/v0.3/pis/payment/${payment!.id}/refunds`, {
    headers: { "Client-Id": "sandbox-client-id", "Client-Secret": "sandbox-client-secret" },
    data: { amount: "2.40" },
  });
  expect(made.status()).toBe(200);

  await signInToBackoffice(page);
  await page.goto(`/backoffice/checkouts/${checkoutId}`);
  const refunds = page.getByRole("table", { name: "Refunds of this checkout" });
  const elsewhere = refunds.getByRole("row", { name: /€2\.40.*Completed.*At the provider/ });
  // The sandbox settles the refund after a few seconds and only then sends its webhook.
  await expect(async () => {
    await page.reload();
    await expect(elsewhere).toHaveCount(1, { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  await expect(refunds.getByRole("row", { name: /Staff/ })).toHaveCount(2);
  await expect(page.getByText("Refundable: €7.50")).toBeVisible();
  await expectNoAxeViolations(page);
});
