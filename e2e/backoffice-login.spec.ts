import { expect, test } from "@playwright/test";
import { expectNoAxeViolations } from "./axe";

test("the back office sends a visitor without a session to the sign-in page", async ({ page }) => {
  await page.goto("/backoffice");
  await expect(page).toHaveURL(/\/backoffice\/login$/);
  await expect(page.getByRole("heading", { level: 1, name: "Back office" })).toBeVisible();

  await page.goto("/backoffice/checkouts/co_does_not_matter");
  await expect(page).toHaveURL(/\/backoffice\/login$/);
});

test("a wrong password is refused with an announced error, the right one signs in and Sign out ends the session", async ({ page, context }) => {
  await page.goto("/backoffice/login");
  await expectNoAxeViolations(page);

  await page.getByLabel("Password", { exact: true }).fill("not-the-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Wrong password" })).toBeVisible();
  await expect(page.getByLabel("Password", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await expect(page).toHaveURL(/\/backoffice\/login$/);
  expect((await context.cookies()).find((c) => c.name === "bo_session")).toBeUndefined();
  await expectNoAxeViolations(page);

  await page.getByLabel("Password", { exact: true }).fill("dev-backoffice");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/backoffice$/);
  await expect(page.getByRole("heading", { level: 1, name: "Checkouts" })).toBeVisible();

  const session = (await context.cookies()).find((c) => c.name === "bo_session");
  expect(session?.httpOnly).toBe(true);
  expect(session?.sameSite).toBe("Strict");

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/backoffice\/login$/);
  await page.goto("/backoffice");
  await expect(page).toHaveURL(/\/backoffice\/login$/);
});

test("a forged session cookie does not open the back office", async ({ page, context }) => {
  await context.addCookies([{ name: "bo_session", value: "eyJleHAiOjk5OTk5OTk5OTk5OTl9.forged", url: "http://localhost" }]);
  await page.goto("/backoffice");
  await expect(page).toHaveURL(/\/backoffice\/login$/);
});
