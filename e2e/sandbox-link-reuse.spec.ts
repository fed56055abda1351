import { expect, test } from "@playwright/test";
import { controlPost, createPayment, paymentStatus, routeShop, sandboxPage } from "../lib/sandbox/e2e-helpers";
import { expectNoAxeViolations } from "./axe";

// The confirmLink works once: a second visit says so, while the flow's own steps (and Back) work.

test.beforeEach(async ({ page }) => {
  await routeShop(page);
});

test("a second visit of the confirmLink says it was used; Back into the flow still works", async ({
  page,
  browser,
}) => {
  const { id, confirmLink } = await createPayment();
  await page.goto(confirmLink);
  await page.getByText("SEB", { exact: true }).click();
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByRole("heading", { name: "Log in to SEB" })).toBeVisible();

  // Another browser opening the link: used, and no way in.
  const other = await browser.newContext();
  const stranger = await other.newPage();
  await stranger.goto(confirmLink);
  await expect(stranger.getByRole("heading", { name: "This link was already used" })).toBeVisible();
  await expect(stranger.getByRole("link", { name: "Continue where you left off" })).toHaveCount(0);
  await expectNoAxeViolations(stranger);
  await other.close();

  // The payer opening it again: used, with a way back into their own flow.
  await page.goto(confirmLink);
  await expect(page.getByRole("heading", { name: "This link was already used" })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.goBack();
  await expect(page.getByRole("heading", { name: "Log in to SEB" })).toBeVisible();
  await page.goForward();
  await page.getByRole("link", { name: "Continue where you left off" }).click();
  await page.getByLabel("Username").fill("test");
  await page.getByLabel("Password").fill("1234");
  await page.getByRole("button", { name: "Log in" }).click();
  await page.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByRole("heading", { name: "Back at the shop" })).toBeVisible();
  expect(await paymentStatus(id)).toEqual({ bankStatus: "ACSC", group: "completed" });
});

test("an expired or finished payment's link says so", async ({ page }) => {
  const expired = await createPayment();
  await controlPost(`/payments/${expired.id}/status`, { bankStatus: "CANC", errorCodes: [21100] });
  await page.goto(expired.confirmLink);
  await expect(page.getByRole("heading", { name: "This link has expired" })).toBeVisible();
  await expectNoAxeViolations(page);

  const finished = await createPayment();
  await controlPost(`/payments/${finished.id}/status`, { bankStatus: "ACSC" });
  await page.goto(finished.confirmLink);
  await expect(page.getByRole("heading", { name: "This payment is already finished" })).toBeVisible();
  await expectNoAxeViolations(page);
});

test("an unknown payment is a plain, accessible 404 page", async ({ page }) => {
  const response = await page.goto(sandboxPage(`/login/${"f".repeat(40)}`));
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Payment not found" })).toBeVisible();
  await expectNoAxeViolations(page);
});
