import { expect, test } from "@playwright/test";
import { DEMO_ADMIN, signInToBackoffice } from "./journey";
import { expectNoAxeViolations } from "./axe";

test("the back office sends a visitor without a session to the sign-in page", async ({ page }) => {
  await page.goto("/backoffice");
  await expect(page).toHaveURL(/\/backoffice\/login$/);
  await expect(page.getByRole("heading", { level: 1, name: "Back office" })).toBeVisible();

  await page.goto("/backoffice/checkouts/co_does_not_matter");
  await expect(page).toHaveURL(/\/backoffice\/login$/);
});

test("a wrong password and an unknown email are refused alike with an announced error, the right ones sign in and Sign out ends the session", async ({
  page,
  context,
}) => {
  await page.goto("/backoffice/login");
  await expectNoAxeViolations(page);

  await page.getByLabel("Email").fill("nobody@shop.example");
  await page.getByLabel("Password", { exact: true }).fill("dev-backoffice");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Wrong email or password" })).toBeVisible();
  await page.getByLabel("Email").fill(DEMO_ADMIN.email);
  await page.getByLabel("Password", { exact: true }).fill("not-the-password");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Wrong email or password" })).toBeVisible();
  await expect(page.getByLabel("Password", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await expect(page).toHaveURL(/\/backoffice\/login$/);
  expect((await context.cookies()).find((c) => c.name === "bo_session")).toBeUndefined();
  await expectNoAxeViolations(page);

  await page.getByLabel("Password", { exact: true }).fill(DEMO_ADMIN.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL(/\/backoffice$/);
  await expect(page.getByRole("heading", { level: 1, name: "Checkouts" })).toBeVisible();
  await expect(page.getByText(`${DEMO_ADMIN.email} · Admin`)).toBeVisible();

  const session = (await context.cookies()).find((c) => c.name === "bo_session");
  expect(session?.httpOnly).toBe(true);
  expect(session?.sameSite).toBe("Strict");

  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page).toHaveURL(/\/backoffice\/login$/);
  await page.goto("/backoffice");
  await expect(page).toHaveURL(/\/backoffice\/login$/);
});

test("a forged session cookie does not open the back office", async ({ page, context }) => {
  await context.addCookies([
    { name: "bo_session", value: "eyJleHAiOjk5OTk5OTk5OTk5OTl9.forged", url: "http://localhost" },
  ]);
  await page.goto("/backoffice");
  await expect(page).toHaveURL(/\/backoffice\/login$/);
});

test("Sign out really ends the session: its cookie, replayed later, opens nothing", async ({
  page,
  context,
  browser,
}) => {
  await signInToBackoffice(page);
  const cookie = (await context.cookies()).find((c) => c.name === "bo_session")!;
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page).toHaveURL(/\/backoffice\/login$/);

  // Someone who copied the cookie before Sign out tries it in another browser.
  const other = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  await other.addCookies([cookie]);
  const replay = await other.newPage();
  await replay.goto("/backoffice");
  await expect(replay).toHaveURL(/\/backoffice\/login$/);
  expect((await other.request.get("/api/backoffice/checkouts")).status()).toBe(401);
  await other.close();
});

test("Sign out everywhere ends every session of the person, in every browser", async ({ page, browser }) => {
  const laptop = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  const elsewhere = await laptop.newPage();
  await signInToBackoffice(elsewhere);
  await signInToBackoffice(page);

  await page.getByRole("button", { name: "Sign out everywhere" }).click();
  await expect(page).toHaveURL(/\/backoffice\/login\?ended=all$/);
  await expectNoAxeViolations(page);
  await expect(page.getByRole("status")).toContainText("Signed out everywhere");
  await elsewhere.goto("/backoffice");
  await expect(elsewhere).toHaveURL(/\/backoffice\/login$/);
  await laptop.close();
});
