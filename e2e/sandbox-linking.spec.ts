import { expect, test } from "@playwright/test";
import { landing, routeShop, sandboxPage, startLinking } from "../lib/sandbox/e2e-helpers";
import { expectNoAxeViolations } from "./axe";

// The hosted account-linking page (POST /auth's authorizationLink) and the sandbox's console.

test.beforeEach(async ({ page }) => {
  await routeShop(page);
});

test("account linking: bank, login, consent, then back with requestId, code and status=success", async ({ page }) => {
  await page.goto(await startLinking("?scopes=payments&scopes=accounts_balances&lang=lt"));
  await expect(page.locator("html")).toHaveAttribute("lang", "lt");
  await expect(page.getByRole("heading", { name: "Pasirinkite banką" })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByText("Swedbank", { exact: true }).click();
  await page.getByRole("button", { name: "Tęsti" }).click();
  await page.getByLabel("Naudotojo vardas").fill("test");
  await page.getByLabel("Slaptažodis").fill("1234");
  await expectNoAxeViolations(page);
  await page.getByRole("button", { name: "Prisijungti", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Leiskite prieigą prie sąskaitos" })).toBeVisible();
  await expect(page.getByText("Matyti jūsų likučius")).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole("button", { name: "Leisti", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Back at the shop" })).toBeVisible();
  expect(landing(page).get("status")).toBe("success");
  expect(landing(page).get("code")).toMatch(/^[0-9a-f]{48}$/);
});

test("card linking shows the test card form", async ({ page }) => {
  await page.goto(await startLinking("?scopes=payments", { cardMethod: {} }));
  await expect(page.getByRole("heading", { name: "Link your card" })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByRole("heading", { name: "Back at the shop" })).toBeVisible();
  expect(landing(page).get("status")).toBe("failure");
});

test("the console lists payments and offers its levers accessibly", async ({ page }) => {
  await page.goto(sandboxPage("/"));
  await expect(page.getByRole("heading", { name: "Sandbox provider console" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Provider faults" })).toBeVisible();
  await expectNoAxeViolations(page);
});
