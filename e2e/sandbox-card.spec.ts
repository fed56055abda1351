import { expect, test, type Page } from "@playwright/test";
import { createPayment, landing, paymentStatus, routeShop } from "../lib/sandbox/e2e-helpers";
import { expectNoAxeViolations } from "./axe";

// The sandbox's hosted card form and hybrid method choice, with the documented test cards.

test.beforeEach(async ({ page }) => {
  await routeShop(page);
});

async function payByCard(page: Page, number: string) {
  await page.getByLabel("Card number").fill(number);
  await page.getByLabel("Expiry date (MM/YY)").fill("12/39");
  await page.getByLabel("Security code (CVC)").fill("123");
  await page.getByLabel("Name on card").fill("Test Payer");
  await page.getByRole("button", { name: "Pay 24.90 EUR" }).click();
}

const cardPayment = () => createPayment({ card: true, query: "?paymentMethodPreferred=card" });

test("4111 1111 1111 1111: the card payment succeeds", async ({ page }) => {
  const { id, confirmLink } = await cardPayment();
  await page.goto(confirmLink);
  await expect(page.getByRole("heading", { name: "Pay by card" })).toBeVisible();
  await expectNoAxeViolations(page);
  await payByCard(page, "4111 1111 1111 1111");
  await expect(page.getByRole("heading", { name: "Back at the shop" })).toBeVisible();
  expect(landing(page).get("statusGroup")).toBe("completed");
  expect(await paymentStatus(id)).toEqual({ cardStatus: "payment_success", group: "completed" });
});

test("4000 0000 0000 0002: the card is declined", async ({ page }) => {
  const { id, confirmLink } = await cardPayment();
  await page.goto(confirmLink);
  await payByCard(page, "4000 0000 0000 0002");
  await expect(page.getByRole("heading", { name: "Back at the shop" })).toBeVisible();
  expect(landing(page).get("statusGroup")).toBe("failed");
  expect(await paymentStatus(id)).toEqual({ cardStatus: "payment_failure", group: "failed", error: { code: [21101] } });
  await page.goBack();
  await expect(page.getByRole("heading", { name: "Card declined" })).toBeVisible();
  await expectNoAxeViolations(page);
});

test("4000 0000 0000 3220: an extra verification step with the one-time code 123456", async ({ page }) => {
  const { id, confirmLink } = await cardPayment();
  await page.goto(confirmLink);
  await payByCard(page, "4000000000003220");
  await expect(page.getByRole("heading", { name: "Confirm with your card issuer" })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByLabel("One-time code").fill("000000");
  await page.getByRole("button", { name: "Confirm" }).click();
  await expect(page.getByRole("alert")).toHaveText("Wrong code. Try again.");
  await expectNoAxeViolations(page);
  await page.getByLabel("One-time code").fill("123456");
  await page.getByRole("button", { name: "Confirm" }).click();
  await expect(page.getByRole("heading", { name: "Back at the shop" })).toBeVisible();
  expect(await paymentStatus(id)).toEqual({ cardStatus: "payment_success", group: "completed" });
});

test("a card form mistake is explained and marks its field", async ({ page }) => {
  const { confirmLink } = await cardPayment();
  await page.goto(confirmLink);
  await payByCard(page, "5555 5555 5555 4444");
  await expect(page.getByRole("alert")).toHaveText("Use one of the test cards listed above.");
  await expect(page.getByLabel("Card number")).toHaveAttribute("aria-invalid", "true");
  await expectNoAxeViolations(page);
});

test("hybrid: the payer picks the card", async ({ page }) => {
  const { id, confirmLink } = await createPayment({ card: true });
  await page.goto(confirmLink);
  await expect(page.getByRole("heading", { name: "Choose how to pay" })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole("button", { name: "Pay by card" }).click();
  await payByCard(page, "4111111111111111");
  await expect(page.getByRole("heading", { name: "Back at the shop" })).toBeVisible();
  expect(await paymentStatus(id)).toEqual({ cardStatus: "payment_success", group: "completed" });
});

test("hybrid: the payer picks the bank", async ({ page }) => {
  const { id, confirmLink } = await createPayment({ card: true });
  await page.goto(confirmLink);
  await page.getByRole("button", { name: "Pay by bank" }).click();
  await expect(page.getByRole("heading", { name: "Choose your bank" })).toBeVisible();
  expect(await paymentStatus(id)).toEqual({ bankStatus: "STRD", group: "started" });
  await page.getByText("Swedbank", { exact: true }).click();
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByLabel("Username").fill("test");
  await page.getByLabel("Password").fill("1234");
  await page.getByRole("button", { name: "Log in" }).click();
  await page.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByRole("heading", { name: "Back at the shop" })).toBeVisible();
  expect(await paymentStatus(id)).toEqual({ bankStatus: "ACSC", group: "completed" });
});
