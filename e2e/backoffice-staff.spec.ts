import { expect, request as playwrightRequest, test, type APIRequestContext } from "@playwright/test";
import { ROLES, allows, type StaffAction, type StaffRole } from "../lib/staff/roles";
import { expectNoAxeViolations } from "./axe";
import { DEMO_ADMIN, MERCHANT_KEY, createCheckout, signInToBackoffice } from "./journey";
import { callAction, serverAction, serverActions } from "./server-action";

/*
 * Named staff with roles (issue 53): an admin invites a person, who sets a password and signs in;
 * every back-office action is refused to the roles the table does not allow, however it is posted.
 */

const PASSWORD = "a long staff passphrase";
const LINK = /\/backoffice\/set-password\/([A-Za-z0-9_-]{43})/;

/** What each server action needs: a role's permission from lib/staff/roles.ts, or nothing (signing in). */
const NEEDS: Record<string, StaffAction | "anyone"> = {
  login: "anyone",
  logout: "anyone",
  setPasswordAction: "anyone",
  logoutEverywhere: "checkouts.view",
  refundCheckout: "refunds.create",
  cancelCheckoutAsStaff: "checkouts.cancel",
  resendNotificationAsStaff: "notifications.resend",
  inviteStaffAction: "staff.manage",
  resetLinkAction: "staff.manage",
  changeRoleAction: "staff.manage",
  setDisabledAction: "staff.manage",
};

async function signedIn(baseURL: string, who: { email: string; password: string }): Promise<APIRequestContext> {
  const context = await playwrightRequest.newContext({ baseURL });
  const res = await callAction(context, serverAction("app/backoffice/actions.ts", "login"), who, baseURL);
  expect(res.headers()["x-action-redirect"], await res.text()).toMatch(/^\/backoffice/);
  return context;
}

/** Invites `email` as `role` with the admin's session and sets the password from the link it answers. */
async function invite(admin: APIRequestContext, baseURL: string, email: string, role: StaffRole) {
  const answer = await callAction(
    admin,
    serverAction("app/backoffice/staff/actions.ts", "inviteStaffAction"),
    { email, role },
    baseURL,
  );
  const token = LINK.exec(await answer.text())?.[1];
  expect(token, `no link for ${email}`).toBeDefined();
  const anonymous = await playwrightRequest.newContext({ baseURL });
  const set = await callAction(
    anonymous,
    serverAction("app/backoffice/staff/actions.ts", "setPasswordAction"),
    { token: token!, password: PASSWORD },
    baseURL,
  );
  expect(set.headers()["x-action-redirect"]).toMatch(/password=set/);
  await anonymous.dispose();
  return signedIn(baseURL, { email, password: PASSWORD });
}

test("every back-office action is refused 403 to each role the table does not allow, posted from outside its page", async ({
  baseURL,
}) => {
  const actions = serverActions().filter((a) => a.file.startsWith("app/backoffice/"));
  // A new action must say what it needs before this test passes: deny by default.
  expect(actions.map((a) => a.name).sort()).toEqual(Object.keys(NEEDS).sort());

  const admin = await signedIn(baseURL!, DEMO_ADMIN);
  const run = Date.now();
  const sessions = Object.fromEntries(
    await Promise.all(
      ROLES.map(
        async (role) => [role, await invite(admin, baseURL!, `walk-${role}-${run}@shop.example`, role)] as const,
      ),
    ),
  ) as Record<StaffRole, APIRequestContext>;

  for (const action of actions) {
    const needs = NEEDS[action.name]!;
    if (needs === "anyone") continue;
    for (const role of ROLES) {
      // Allowed, logoutEverywhere would end the session the walk goes on with.
      if (action.name === "logoutEverywhere" && allows(role, needs)) continue;
      // An empty form: allowed, the action refuses it in words (200) and changes nothing.
      const res = await callAction(sessions[role], action, {}, baseURL!);
      expect([action.name, role, res.status()]).toEqual([action.name, role, allows(role, needs) ? 200 : 403]);
    }
    // Without a session: sent to sign in, nothing done.
    const anonymous = await playwrightRequest.newContext({ baseURL });
    const res = await callAction(anonymous, action, {}, baseURL!);
    expect([action.name, res.headers()["x-action-redirect"]]).toEqual([
      action.name,
      expect.stringMatching(/^\/backoffice\/login/),
    ]);
    await anonymous.dispose();
  }

  // A viewer's forged refund and cancel of a real checkout: refused, the checkout untouched.
  const id = await createCheckout(admin, { reference: `walk-${run}` });
  for (const [name, form] of [
    ["refundCheckout", { checkoutId: id, amount: "1.00", reason: "forged", refundKey: "forged-refund-key-0001" }],
    ["cancelCheckoutAsStaff", { checkoutId: id }],
  ] as const) {
    const res = await callAction(sessions.viewer, serverAction("app/backoffice/actions.ts", name), form, baseURL!);
    expect([name, res.status()]).toEqual([name, 403]);
  }
  const view = await admin.get(`/api/checkouts/${id}`, { headers: { Authorization: `Bearer ${MERCHANT_KEY}` } });
  expect(await view.json()).toMatchObject({ status: "open", refunds: [] });
  await Promise.all([admin, ...Object.values(sessions)].map((c) => c.dispose()));
});

test("an admin invites a person, who sets a password from the link and signs in with what the role allows; disabled, their tab is signed out", async ({
  page,
  browser,
  baseURL,
  request,
}) => {
  const email = `viewer-${Date.now()}@shop.example`;
  await signInToBackoffice(page);
  await page.getByRole("navigation", { name: "Back office" }).getByRole("link", { name: "Staff" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Staff" })).toBeVisible();
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Role", { exact: true }).selectOption("viewer");
  await page.getByRole("button", { name: "Invite", exact: true }).click();
  await expect(page.getByRole("status", { name: "Invite result" })).toContainText(`${email} is invited`);
  const link = await page.getByLabel("Link to set a password").inputValue();
  expect(link).toMatch(LINK);
  await expect(page.getByRole("row", { name: new RegExp(email) })).toContainText("Invited");
  await expectNoAxeViolations(page);

  const theirs = await browser.newContext({ baseURL });
  const person = await theirs.newPage();
  await person.goto(link);
  await expect(person.getByRole("heading", { level: 1, name: "Set your password" })).toBeVisible();
  await expectNoAxeViolations(person);
  await person.getByLabel("New password", { exact: true }).fill(PASSWORD);
  await person.getByLabel("New password again").fill("not the same passphrase");
  await person.getByRole("button", { name: "Set password" }).click();
  await expect(person.locator("#set-password-error")).toContainText("not the same");
  await person.getByLabel("New password again").fill(PASSWORD);
  await person.getByRole("button", { name: "Set password" }).click();
  await expect(person.getByRole("status")).toContainText("Your password is set");
  await signInToBackoffice(person, { email, password: PASSWORD });
  await expect(person.getByText(`${email} · Viewer`)).toBeVisible();

  // The viewer's checkout page has no Cancel, and the Staff page is not theirs.
  const id = await createCheckout(request);
  await person.goto(`/backoffice/checkouts/${id}`);
  await expect(person.getByRole("heading", { level: 1, name: /^Checkout / })).toBeVisible();
  await expect(person.getByRole("button", { name: "Cancel checkout" })).toHaveCount(0);
  // The page streams (its loading state), so the refusal comes after a 200: said in the page.
  await person.goto("/backoffice/staff");
  await expect(person.getByRole("heading", { level: 1, name: "Your role may not do this" })).toBeVisible();
  await expectNoAxeViolations(person);

  // The link worked once.
  await person.goto(link);
  await expect(person.getByText("This link has been used already")).toBeVisible();

  // Disabled by the admin: the viewer's open tab gets the sign-in page at its next request.
  await page.reload();
  const row = page.getByRole("row", { name: new RegExp(email) });
  await row.getByRole("button", { name: `Disable ${email}` }).click();
  await expect(page.getByRole("status", { name: `Access of ${email} result` })).toContainText("is disabled");
  await expect(row).toContainText("Disabled");
  await person.goto("/backoffice");
  await expect(person).toHaveURL(/\/backoffice\/login$/);
  await theirs.close();
});
