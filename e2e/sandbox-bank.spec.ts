import { expect, test, type Page } from "@playwright/test";
import { controlPost, createPayment, landing, paymentStatus, routeShop } from "../lib/sandbox/e2e-helpers";
import { expectNoAxeViolations } from "./axe";

// The sandbox's hosted bank payment, driven directly: bank choice, test-bank login, account choice
// and every decision. Each hosted page is checked with axe (WCAG 2.1 AA).

test.beforeEach(async ({ page }) => {
  await routeShop(page);
});

async function logIn(page: Page, username = "test", password = "1234") {
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Log in" }).click();
}

test("bank choice, login, account choice, approve: back at the shop with the payment completed", async ({ page }) => {
  const { id, confirmLink } = await createPayment();
  await page.goto(confirmLink);
  await expect(page.getByRole("heading", { name: "Choose your bank" })).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await expectNoAxeViolations(page);

  await page.getByLabel("Country").selectOption("LV");
  await page.getByRole("button", { name: "Show banks" }).click();
  await expect(page.getByRole("group", { name: "Banks in Latvia" })).toBeVisible();
  await page.getByText("Citadele", { exact: true }).click();
  await page.getByRole("button", { name: "Continue" }).click();

  await expect(page.getByRole("heading", { name: "Log in to Citadele" })).toBeVisible();
  await expectNoAxeViolations(page);
  await logIn(page);

  await expect(page.getByRole("heading", { name: "Confirm payment" })).toBeVisible();
  const accounts = page.getByRole("group", { name: "Pay from" }).getByRole("radio");
  await expect(accounts).toHaveCount(2);
  await expect(accounts.first()).toBeChecked();
  await expectNoAxeViolations(page);
  await accounts.nth(1).check();
  await page.getByRole("button", { name: "Approve" }).click();

  await expect(page.getByRole("heading", { name: "Back at the shop" })).toBeVisible();
  expect(landing(page).get("paymentId")).toBe(id);
  expect(landing(page).get("statusGroup")).toBe("completed");
  expect(await paymentStatus(id)).toEqual({ bankStatus: "ACSC", group: "completed" });

  // Back from the shop shows the finished payment, not a live Approve.
  await page.goBack();
  await expect(page.getByRole("heading", { name: "Payment approved" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Approve" })).toHaveCount(0);
  await expectNoAxeViolations(page);
});

test("in forced colours the chosen bank still shows which it is", async ({ page }) => {
  // Forced colours drop the chosen tile's background and border colour, its only difference from
  // the others: the mark beside its name is what remains.
  await page.emulateMedia({ forcedColors: "active" });
  const { confirmLink } = await createPayment();
  await page.goto(confirmLink);
  await page.getByText("Swedbank", { exact: true }).click();
  const mark = (name: string) =>
    page
      .locator("label", { hasText: name })
      .first()
      .evaluate((label) => getComputedStyle(label, "::after").content);
  expect(await mark("Swedbank")).toContain("✓");
  expect(await mark("Citadele")).toBe("none");
  await expectNoAxeViolations(page);
});

test("a wrong login fails and stays on the form; the right one goes on", async ({ page }) => {
  const { confirmLink } = await createPayment({ query: "?bankId=SWEDBANK_LT_SAND" });
  await page.goto(confirmLink);
  await expect(page.getByRole("heading", { name: "Log in to Swedbank" })).toBeVisible();
  await logIn(page, "test", "wrong");
  await expect(page.getByRole("alert")).toHaveText("Wrong username or password. Try again.");
  await expect(page.getByLabel("Username")).toHaveAttribute("aria-invalid", "true");
  await expectNoAxeViolations(page);
  await logIn(page);
  await expect(page.getByRole("heading", { name: "Confirm payment" })).toBeVisible();
});

test("Cancel at the bank: back at the shop with failed, CANC 21004", async ({ page }) => {
  const { id, confirmLink } = await createPayment({ query: "?bankId=SEB_LT_SAND" });
  await page.goto(confirmLink);
  await logIn(page);
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByRole("heading", { name: "Back at the shop" })).toBeVisible();
  expect(landing(page).get("statusGroup")).toBe("failed");
  expect(await paymentStatus(id)).toEqual({ bankStatus: "CANC", group: "failed", error: { code: [21004] } });
  await page.goBack();
  await expect(page.getByRole("heading", { name: "Payment cancelled" })).toBeVisible();
  await expectNoAxeViolations(page);
});

test("Reject (insufficient funds): RJCT 20017", async ({ page }) => {
  const { id, confirmLink } = await createPayment({ query: "?bankId=LHV_EE_SAND" });
  await page.goto(confirmLink);
  await logIn(page);
  await page.getByRole("button", { name: "Reject (insufficient funds)" }).click();
  await expect(page.getByRole("heading", { name: "Back at the shop" })).toBeVisible();
  expect(await paymentStatus(id)).toEqual({ bankStatus: "RJCT", group: "failed", error: { code: [20017] } });
});

test("redirectPreferred: the bank's own login page, outside the frame", async ({ page }) => {
  const { confirmLink } = await createPayment({ query: "?bankId=SWEDBANK_LT_SAND&redirectPreferred=true" });
  await page.goto(confirmLink);
  await expect(page.getByRole("heading", { name: "Log in to Swedbank" })).toBeVisible();
  await expect(page.getByText("test internet bank")).toBeVisible();
  await expect(page.getByText(/^Step \d/)).toHaveCount(0);
  await expectNoAxeViolations(page);
});

test("pending, then completed: the test user `pending`, then 30 s of sandbox time", async ({ page }) => {
  const { id, confirmLink } = await createPayment({ query: "?bankId=SEB_LT_SAND" });
  await page.goto(confirmLink);
  await logIn(page, "pending");
  await page.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByRole("heading", { name: "Back at the shop" })).toBeVisible();
  expect(landing(page).get("statusGroup")).toBe("pending");
  expect(await paymentStatus(id)).toEqual({ bankStatus: "ACSP", group: "pending" });

  await page.goBack();
  await expect(page.getByRole("heading", { name: "Payment pending" })).toBeVisible();
  await expectNoAxeViolations(page);

  await controlPost("/clock", { advanceMs: 30_000 });
  expect(await paymentStatus(id)).toEqual({ bankStatus: "ACSC", group: "completed" });
  await page.reload();
  await expect(page.getByRole("heading", { name: "Payment approved" })).toBeVisible();
});

test("Leave pending, then the control API completes it", async ({ page }) => {
  const { id, confirmLink } = await createPayment({ query: "?bankId=SEB_LT_SAND" });
  await page.goto(confirmLink);
  await logIn(page);
  await page.getByRole("button", { name: "Leave pending" }).click();
  await expect(page.getByRole("heading", { name: "Back at the shop" })).toBeVisible();
  expect(await paymentStatus(id)).toEqual({ bankStatus: "ACTC", group: "pending" });
  await controlPost(`/payments/${id}/status`, { bankStatus: "ACSC" });
  expect(await paymentStatus(id)).toEqual({ bankStatus: "ACSC", group: "completed" });
});
