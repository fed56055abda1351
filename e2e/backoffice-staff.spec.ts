import { createHmac } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, request as playwrightRequest, test, type APIRequestContext, type Page } from "@playwright/test";
import { ROLES, allows, type StaffAction, type StaffRole } from "../lib/staff/roles";
import { stepOf, totpCode } from "../lib/staff/totp";
import { expectNoAxeViolations } from "./axe";
import {
  DEMO_ADMIN,
  MERCHANT_KEY,
  createCheckout,
  forceProviderStatus,
  merchantView,
  payerAtTheBank,
  signInToBackoffice,
} from "./journey";
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
  // The steps of signing in, for the session's own person whatever the role.
  verifySecondFactor: "anyone",
  confirmIdentity: "anyone",
  confirmEnrolmentAction: "anyone",
  passkeyOptions: "anyone",
  answerPasskey: "anyone",
  passkeyRegistrationOptions: "anyone",
  addPasskeyAction: "anyone",
  removePasskeyAction: "anyone",
  resetSecondFactorAction: "staff.manage",
  decideRefundRequest: "refunds.create",
  createKeyAction: "api_keys.manage",
  rollKeyAction: "api_keys.manage",
  revokeKeyAction: "api_keys.manage",
  makeSecretAction: "api_keys.manage",
  rollSecretAction: "api_keys.manage",
  logoutEverywhere: "checkouts.view",
  refundCheckout: "refunds.create",
  cancelCheckoutAsStaff: "checkouts.cancel",
  resendNotificationAsStaff: "notifications.resend",
  createPaymentLinkAction: "payment_links.manage",
  deactivatePaymentLinkAction: "payment_links.manage",
  inviteStaffAction: "staff.manage",
  resetLinkAction: "staff.manage",
  changeRoleAction: "staff.manage",
  setDisabledAction: "staff.manage",
};

/**
 * Signs in over HTTP. A role that must have two-step sign-in is sent to set it up first: the
 * test reads the key from the page, as a person types it into an app, and confirms a code.
 */
async function signedIn(baseURL: string, who: { email: string; password: string }): Promise<APIRequestContext> {
  const context = await playwrightRequest.newContext({ baseURL });
  const res = await callAction(context, serverAction("app/backoffice/login/actions.ts", "login"), who, baseURL);
  const next = res.headers()["x-action-redirect"];
  expect(next).toMatch(/^\/backoffice/);
  if (next?.startsWith("/backoffice/security")) {
    const secret = KEY.exec(await (await context.get("/backoffice/security")).text())?.[1];
    expect(secret).toBeDefined();
    const enrolled = await callAction(
      context,
      serverAction("app/backoffice/security/actions.ts", "confirmEnrolmentAction"),
      { code: totpCode(secret!, stepOf(new Date())) },
      baseURL,
    );
    expect(await enrolled.text()).toContain("Two-step sign-in is on");
  }
  return context;
}

const KEY = /type this key into the app: <span[^>]*>([A-Z2-7]{32})</;

/** The demo admin invites `email` as `role`: the one-time link to set a password. */
async function invitationLink(email: string, role: StaffRole): Promise<string> {
  const baseURL = test.info().project.use.baseURL!;
  const demo = await signedIn(baseURL, DEMO_ADMIN);
  const answer = await callAction(
    demo,
    serverAction("app/backoffice/staff/actions.ts", "inviteStaffAction"),
    { email, role },
    baseURL,
  );
  const link = LINK.exec(await answer.text())![0];
  await demo.dispose();
  return link;
}

/** The demo admin invites a finance person, who sets a password from the link in `page`. */
async function newFinancePerson(page: Page, name: string): Promise<string> {
  const email = `${name}-${Date.now()}@shop.example`;
  await page.goto(await invitationLink(email, "finance"));
  await page.getByLabel("New password", { exact: true }).fill(PASSWORD);
  await page.getByLabel("New password again").fill(PASSWORD);
  await page.getByRole("button", { name: "Set password" }).click();
  await expect(page.getByRole("status")).toContainText("Your password is set");
  return email;
}

async function signInWithPassword(page: Page, email: string) {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
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
      // Allowed, these two take no field: one would end the session the walk goes on with, the
      // other make a signing secret every later notification would carry.
      if (["logoutEverywhere", "makeSecretAction"].includes(action.name) && allows(role, needs)) continue;
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

  // Payment links: every role sees a link, its page and its QR code file.
  const made = await admin.post("/api/payment-links", {
    headers: { Authorization: `Bearer ${MERCHANT_KEY}` },
    data: { title: "Walk", currency: "EUR", amount: "5.00", referencePrefix: "WALK" },
  });
  expect(made.status()).toBe(201);
  const linkId = ((await made.json()) as { id: string }).id;

  // The pages of what a role may not do answer 403 (they render whole: no loading state starts them).
  const PAGES: Record<string, StaffAction> = {
    "/backoffice/staff": "staff.manage",
    "/backoffice/api-keys": "api_keys.manage",
    "/backoffice/activity": "audit.view",
    "/backoffice/payment-links": "payment_links.view",
    [`/backoffice/payment-links/${linkId}`]: "payment_links.view",
  };
  for (const [path, needs] of Object.entries(PAGES))
    for (const role of ROLES) {
      const res = await sessions[role].get(path, { maxRedirects: 0 });
      expect([path, role, res.status()]).toEqual([path, role, allows(role, needs) ? 200 : 403]);
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
  // ...and of a payment link: refused, the link still taking payments.
  const forged = await callAction(
    sessions.viewer,
    serverAction("app/backoffice/payment-links/actions.ts", "deactivatePaymentLinkAction"),
    { linkId },
    baseURL!,
  );
  expect(forged.status()).toBe(403);
  const link = await admin.get(`/api/payment-links/${linkId}`, {
    headers: { Authorization: `Bearer ${MERCHANT_KEY}` },
  });
  expect(await link.json()).toMatchObject({ status: "active" });
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

test("each staff action writes exactly one row of the audit trail, which admins read on the Activity page and as CSV", async ({
  baseURL,
  page,
}) => {
  const run = Date.now();
  const demo = await signedIn(baseURL!, DEMO_ADMIN);
  const email = `audit-admin-${run}@shop.example`;
  const admin = await invite(demo, baseURL!, email, "admin");
  const csvRows = async () =>
    (await (await demo.get("/api/backoffice/activity")).text()).split("\r\n").filter((l) => l.includes(`,${email},`));
  const id = await createCheckout(admin, { reference: `audit-${run}` });
  const staffActions = "app/backoffice/staff/actions.ts";
  const invited = await callAction(
    admin,
    serverAction(staffActions, "inviteStaffAction"),
    {
      email: `audit-target-${run}@shop.example`,
      role: "viewer",
    },
    baseURL!,
  );
  const target = /"staffId":"(st_[0-9a-f-]{36})"/.exec(await invited.text())?.[1];
  expect(target).toBeDefined();
  // Every action that changes something, each once; signing in and its steps are the other tests'.
  const calls: [string, string, Record<string, string>][] = [
    [staffActions, "changeRoleAction", { staffId: target!, role: "support" }],
    [staffActions, "resetLinkAction", { staffId: target! }],
    [staffActions, "resetSecondFactorAction", { staffId: target! }],
    [staffActions, "setDisabledAction", { staffId: target!, disabled: "true" }],
    [staffActions, "setDisabledAction", { staffId: target!, disabled: "false" }],
    [
      "app/backoffice/actions.ts",
      "refundCheckout",
      { checkoutId: id, amount: "1.00", reason: "test", refundKey: `audit-refund-${run}` },
    ],
    [
      "app/backoffice/actions.ts",
      "resendNotificationAsStaff",
      { checkoutId: id, notificationId: "ntf_00000000-0000-4000-8000-000000000000" },
    ],
    ["app/backoffice/actions.ts", "cancelCheckoutAsStaff", { checkoutId: id }],
    [
      "app/backoffice/payment-links/actions.ts",
      "createPaymentLinkAction",
      { title: "Audit", currency: "EUR", amountKind: "fixed", amount: "5.00", referencePrefix: "AUDIT" },
    ],
    // An unknown link: refused, and the refusal is recorded.
    ["app/backoffice/payment-links/actions.ts", "deactivatePaymentLinkAction", { linkId: "plink_AAAAAAAAAAAAAAAA" }],
    ["app/backoffice/login/actions.ts", "logoutEverywhere", {}],
  ];
  let before = (await csvRows()).length;
  for (const [file, name, form] of calls) {
    await callAction(admin, serverAction(file, name), form, baseURL!);
    const after = (await csvRows()).length;
    expect([name, after - before]).toEqual([name, 1]);
    before = after;
  }

  // The admin's page: the invitation and the refused refund, named, filtered by action.
  await signInToBackoffice(page);
  await page.getByRole("navigation", { name: "Back office" }).getByRole("link", { name: "Activity" }).click();
  await page.getByLabel("Action").selectOption({ label: "Refunded" });
  await page.getByRole("button", { name: "Apply filters" }).click();
  const refund = page.getByRole("row", { name: new RegExp(email) });
  await expect(refund).toContainText("Failed");
  await expect(refund.getByRole("link", { name: id })).toBeVisible();
  await expectNoAxeViolations(page);
  // The checkout's own page names who did what to it.
  await refund.getByRole("link", { name: id }).click();
  const staffTable = page.getByRole("table", { name: /What staff and API keys did to this checkout/ });
  await expect(staffTable.getByRole("row", { name: /Cancelled the checkout/ })).toContainText(email);
  await Promise.all([demo.dispose(), admin.dispose()]);
});

test("a finance person sets up two-step sign-in at first sign-in, then signs in with a code or a recovery code", async ({
  page,
  request,
}) => {
  const email = await newFinancePerson(page, "finance");
  await signInWithPassword(page, email);
  // Nothing else opens before it is set up.
  await expect(page).toHaveURL(/\/backoffice\/security$/);
  await expect(page.getByRole("img", { name: /QR code to add this account/ })).toBeVisible();
  await expectNoAxeViolations(page);
  const id = await createCheckout(request);
  await page.goto(`/backoffice/checkouts/${id}`);
  await expect(page).toHaveURL(/\/backoffice\/security$/);
  const secret = KEY.exec(await page.content())![1]!;
  await page.getByLabel("Code from the app").fill("000000");
  await page.getByRole("button", { name: "Turn on two-step sign-in" }).click();
  await expect(page.getByRole("alert", { name: "Two-step sign-in error" })).toContainText("not right");
  await page.getByLabel("Code from the app").fill(totpCode(secret, stepOf(new Date())));
  await page.getByRole("button", { name: "Turn on two-step sign-in" }).click();
  const listed = page.getByRole("list", { name: "Recovery codes" }).getByRole("listitem");
  await expect(listed).toHaveCount(10);
  const codes = await listed.allInnerTexts();
  await page.getByRole("link", { name: "Continue to the back office" }).click();
  await expect(page.getByText(`${email} · Finance`)).toBeVisible();
  await page.getByRole("button", { name: "Sign out", exact: true }).click();

  // Next time: the password, then a code. A wrong one is refused; a recovery code works once.
  await signInWithPassword(page, email);
  await expect(page).toHaveURL(/\/backoffice\/login\/code$/);
  await expectNoAxeViolations(page);
  await page.getByLabel("Code", { exact: true }).fill("123456");
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.locator("#code-error")).toContainText("not right");
  await page.getByLabel("Code", { exact: true }).fill(codes[0]!);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL(/\/backoffice$/);
  await expect(page.getByText(`${email} · Finance`)).toBeVisible();
});

test("a finance person sets up a passkey instead of an app, signs in with it alone or after the password, and a passkey removed opens nothing", async ({
  page,
}) => {
  const email = await newFinancePerson(page, "passkey");
  // Chromium's virtual authenticator (the DevTools WebAuthn domain): a device with a PIN, always touched.
  const devtools = await page.context().newCDPSession(page);
  await devtools.send("WebAuthn.enable");
  await devtools.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  const signedInAs = page.getByText(`${email} · Finance`);
  const signOut = () => page.getByRole("button", { name: "Sign out", exact: true }).click();

  await signInWithPassword(page, email);
  await expect(page).toHaveURL(/\/backoffice\/security$/);
  await page.getByLabel("Name of the new passkey").fill("Test laptop");
  await page.getByRole("button", { name: "Add a passkey" }).click();
  await expect(page.getByRole("status", { name: "Passkeys result" })).toContainText("Passkey “Test laptop” added");
  // The passkey is the second step the role needs: the back office opens.
  await page.getByRole("link", { name: "Continue to the back office" }).click();
  await expect(signedInAs).toBeVisible();
  await signOut();

  // Without a password: the passkey alone.
  await page.getByRole("button", { name: "Sign in with a passkey" }).click();
  await expect(page).toHaveURL(/\/backoffice$/);
  await expect(signedInAs).toBeVisible();
  await signOut();

  // With the password, the passkey is the second step; there is no app to ask a code of.
  await signInWithPassword(page, email);
  await expect(page).toHaveURL(/\/backoffice\/login\/code$/);
  await expect(page.getByLabel("Code", { exact: true })).toHaveCount(0);
  await expectNoAxeViolations(page);
  await page.getByRole("button", { name: "Use a passkey" }).click();
  await expect(page).toHaveURL(/\/backoffice$/);

  await page.goto("/backoffice/security");
  await expect(page.getByRole("list", { name: "Your passkeys" })).toContainText("Test laptop");
  await expectNoAxeViolations(page);
  await page.getByRole("button", { name: "Remove passkey Test laptop" }).click();
  await expect(page.getByRole("status", { name: "Passkeys result" })).toContainText("Passkey removed");
  await signOut();
  // The device still holds it; the back office no longer knows it.
  await page.getByRole("button", { name: "Sign in with a passkey" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "did not sign you in" })).toBeVisible();
  await expect(page).toHaveURL(/\/backoffice\/login$/);
});

test("an admin makes an API key shown once, which works within its scopes, rolls it and revokes the new one", async ({
  page,
  request,
}) => {
  const name = `Backend ${Date.now()}`;
  const call = (key: string, method: "GET" | "POST" = "GET") =>
    method === "GET"
      ? request.get("/api/checkouts", { headers: { Authorization: `Bearer ${key}` } })
      : request.post("/api/checkouts", {
          headers: { Authorization: `Bearer ${key}` },
          data: {
            amount: "1.00",
            currency: "EUR",
            description: "Key test",
            reference: "key-1",
            returnUrl: "https://shop.example/",
          },
        });
  await signInToBackoffice(page);
  await page.getByRole("navigation", { name: "Back office" }).getByRole("link", { name: "API keys" }).click();
  await page.getByLabel("Name").fill(name);
  await page.getByRole("button", { name: "Make key" }).click();
  await expect(page.getByRole("status", { name: "Make key result" })).toContainText("shown only this once");
  const first = await page.getByLabel("The new API key").inputValue();
  expect(first).toMatch(/^bck_test_/);
  await expectNoAxeViolations(page);
  expect((await call(first)).status()).toBe(200);
  const refused = await call(first, "POST");
  expect([refused.status(), (await refused.json()).code]).toEqual([403, "insufficient_scope"]);

  const row = page.getByRole("row", { name: new RegExp(name) });
  await expect(row).toContainText(first.slice(0, 16));
  await row.getByLabel("Old key keeps working").selectOption({ label: "stops now" });
  await row.getByRole("button", { name: `Roll ${name}` }).click();
  const second = await page.getByLabel(`The new key for ${name}`).inputValue();
  expect((await call(first)).status()).toBe(401);
  expect((await call(second)).status()).toBe(200);

  await page.reload();
  const rows = page.getByRole("row", { name: new RegExp(name) });
  await rows
    .filter({ hasText: second.slice(0, 16) })
    .getByRole("button", { name: `Revoke ${name}` })
    .click();
  await expect(page.getByRole("status", { name: `Revoke ${name} result` })).toContainText("revoked");
  expect((await call(second)).status()).toBe(401);
});

test("recent sign-in: the confirm page takes the password again and goes back to our own page only", async ({
  page,
}) => {
  await signInToBackoffice(page);
  await page.goto("/backoffice/confirm?next=https://evil.example/");
  await expect(page.getByRole("link", { name: "Back without confirming" })).toHaveAttribute("href", "/backoffice");
  await page.goto("/backoffice/confirm?next=/backoffice/api-keys");
  await expect(page.getByRole("heading", { level: 1, name: "Confirm it is you" })).toBeVisible();
  await page.getByLabel("Password or code").fill("not my password");
  await page.getByRole("button", { name: "Confirm" }).click();
  await expect(page.locator("#confirm-error")).toContainText("not your password");
  await expectNoAxeViolations(page);
  await page.getByLabel("Password or code").fill(DEMO_ADMIN.password);
  await page.getByRole("button", { name: "Confirm" }).click();
  await expect(page).toHaveURL(/\/backoffice\/api-keys$/);
});

test("four eyes: a refund above the limit waits until a second person approves it, and the timeline names both", async ({
  browser,
  page,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const reference = `four-eyes-${Date.now()}`;
  const id = await createCheckout(page.request, { amount: "600.00", reference });
  // Paid over the payer's API and the sandbox's control API: the payer's pages are other specs'.
  await forceProviderStatus(page.request, await payerAtTheBank(page.request, id), { bankStatus: "ACSC" });
  await expect.poll(async () => (await merchantView(page.request, id)).status).toBe("paid");

  // The demo admin asks for the whole 600.00: over the limit of 500, so it is only asked for.
  await signInToBackoffice(page);
  await page.goto(`/backoffice/checkouts/${id}`);
  // The form offers what is left to refund, once its code runs.
  await expect(page.getByLabel("Amount", { exact: true })).toHaveValue("600.00");
  await page.getByLabel(/^Reason/).fill("Returned in full");
  await page.getByRole("button", { name: "Refund" }).click();
  await expect(page.getByRole("status").filter({ hasText: "waits for another finance or admin person" })).toBeVisible();
  const requests = page.getByRole("table", { name: /Refunds asked for/ });
  await expect(requests).toContainText("Waiting for approval");
  await expect(requests.getByRole("button", { name: /Approve/ })).toHaveCount(0);
  const view = await page.request.get(`/api/checkouts/${id}`, { headers: { Authorization: `Bearer ${MERCHANT_KEY}` } });
  expect((await view.json()).refunds).toEqual([]);

  // A finance person, in another browser, approves it.
  const email = `approver-${Date.now()}@shop.example`;
  const admin = await signedIn(baseURL!, DEMO_ADMIN);
  const approverApi = await invite(admin, baseURL!, email, "finance");
  const approver = await browser.newContext({ baseURL, storageState: await approverApi.storageState() });
  const other = await approver.newPage();
  await other.goto("/backoffice");
  await expect(other.getByRole("region", { name: "Refunds waiting for approval" })).toContainText(DEMO_ADMIN.email);
  await other.goto(`/backoffice/checkouts/${id}`);
  await other.getByRole("button", { name: "Approve refund of €600.00" }).click();
  await expect(other.getByRole("status", { name: "Refund approval result" })).toContainText("Approved");
  await expectNoAxeViolations(other);
  const actions = other.getByRole("table", { name: /What staff and API keys did/ });
  await expect(actions.getByRole("row", { name: /Asked for a refund/ })).toContainText(DEMO_ADMIN.email);
  await expect(actions.getByRole("row", { name: /Approved a refund/ })).toContainText(email);
  const after = await page.request.get(`/api/checkouts/${id}`, {
    headers: { Authorization: `Bearer ${MERCHANT_KEY}` },
  });
  expect((await after.json()).refunds).toMatchObject([{ amount: "600.00", createdBy: "staff" }]);
  await Promise.all([approver.close(), admin.dispose(), approverApi.dispose()]);
});

test("a signing secret made in the back office signs each notification beside the settings' one: a v1= by each, each verified", async ({
  page,
  request,
}) => {
  const received: { signature: string; body: string }[] = [];
  const merchant = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      received.push({ signature: String(req.headers["checkout-signature"]), body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => merchant.listen(0, "127.0.0.1", r));
  const port = (merchant.address() as AddressInfo).port;

  await signInToBackoffice(page);
  await page.goto("/backoffice/api-keys");
  await page.getByRole("button", { name: "Make a signing secret" }).click();
  const secret = await page.getByLabel("The new signing secret").inputValue();
  expect(secret).toMatch(/^whsec_/);
  await expectNoAxeViolations(page);

  const id = await createCheckout(request, { notifyUrl: `http://127.0.0.1:${port}/notify` });
  await forceProviderStatus(request, await payerAtTheBank(request, id), { bankStatus: "ACSC" });
  await expect.poll(() => received.length, { timeout: 15_000 }).toBeGreaterThan(0);
  const [{ signature, body }] = received as [{ signature: string; body: string }];
  const t = /^t=(\d+),/.exec(signature)![1];
  const signatures = [...signature.matchAll(/v1=([0-9a-f]{64})/g)].map((m) => m[1]);
  const by = (key: string) => createHmac("sha256", key).update(`${t}.${body}`).digest("hex");
  // One per secret that signs: the settings' one, this one, and any another test made meanwhile.
  expect(signatures.length).toBeGreaterThanOrEqual(2);
  expect(signatures).toContain(by("dev-notify-secret"));
  expect(signatures).toContain(by(secret));
  merchant.close();
});

test.describe("in the staff member's language", () => {
  test.use({ locale: "lt-LT" });

  test("a used link, a wrong password and a role's refusal are said in Lithuanian, and change nothing", async ({
    page,
  }) => {
    const email = `kalba-${Date.now()}@shop.example`;
    const link = await invitationLink(email, "viewer");
    await page.goto(link);
    await expect(page.locator("html")).toHaveAttribute("lang", "lt");
    await page.getByLabel("Naujas slaptažodis", { exact: true }).fill(PASSWORD);
    await page.getByLabel("Pakartokite naują slaptažodį").fill(PASSWORD);
    await page.getByRole("button", { name: "Nustatyti slaptažodį" }).click();
    await expect(page.getByRole("status")).toContainText("Slaptažodis nustatytas");

    // The link again: used, said so, no form to set another password with.
    await page.goto(link);
    await expect(page.getByText("Ši nuoroda jau panaudota. Paprašykite administratoriaus naujos.")).toBeVisible();
    await expect(page.getByLabel("Naujas slaptažodis", { exact: true })).toHaveCount(0);
    await expectNoAxeViolations(page);

    await page.goto("/backoffice/login");
    await page.getByLabel("El. paštas").fill(email);
    await page.getByLabel("Slaptažodis", { exact: true }).fill("not the password at all");
    await page.getByRole("button", { name: "Prisijungti", exact: true }).click();
    await expect(page.getByRole("alert").filter({ hasText: "Neteisingas el. paštas arba slaptažodis." })).toBeVisible();
    await page.getByLabel("Slaptažodis", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Prisijungti", exact: true }).click();
    await expect(page).toHaveURL(/\/backoffice$/);

    // A viewer opening the staff page: refused, in Lithuanian.
    const refused = await page.goto("/backoffice/staff");
    expect(refused?.status()).toBe(403);
    await expect(page.getByRole("heading", { name: "Jūsų vaidmeniui tai neleidžiama" })).toBeVisible();
    await expect(page.locator("html")).toHaveAttribute("lang", "lt");
  });
});
