import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseScopes } from "./auth";
import {
  control,
  credentials,
  getJson,
  getPage,
  initiate,
  linkAccount,
  nocardCredentials,
  openLink,
  paymentBody,
  postJson,
  startAuth,
  startSandbox,
  type RunningSandbox,
} from "./test-helpers";
import { API_VERSIONS } from "./versions";

let s: RunningSandbox;
const HOUR = 3600 * 1000;

beforeAll(async () => {
  // A still clock: only time travel moves it, so lifetimes can be checked to the millisecond.
  s = await startSandbox({ now: () => 1_800_000_000_000 });
});
afterAll(async () => {
  await s.sandbox.close();
});

const bearer = (token: string) => ({ ...credentials, Authorization: `Bearer ${token}` });

describe("POST /auth", () => {
  it("answers an authorizationLink to the hosted page and the state, in every version", async () => {
    for (const version of API_VERSIONS) {
      const { status, json } = await startAuth(s.v(version), "?scopes=payments&lang=lv");
      expect(status).toBe(200);
      expect(json).toEqual({
        authorizationLink: `${s.baseUrl}/auth/${String(json.state)}?lang=lv`,
        state: expect.stringMatching(/^[0-9a-f-]{36}$/),
      });
    }
  });

  it("reads scopes in every encoding clients use, and adds accounts_details to balances and transactions", () => {
    const scopes = (query: string) => parseScopes(new URL(`http://x/auth${query}`));
    expect(scopes("?scopes=payments&scopes=accounts_basic")).toEqual(["payments", "accounts_basic"]);
    expect(scopes("?scopes[0]=payments&scopes[1]=accounts_basic")).toEqual(["payments", "accounts_basic"]);
    expect(scopes("?scopes%5B0%5D=payments&scopes%5B1%5D=accounts_basic")).toEqual(["payments", "accounts_basic"]);
    expect(scopes("?scopes[]=payments&scopes=accounts_basic,payments")).toEqual(["payments", "accounts_basic"]);
    // The official JVM client puts its enum's name on the wire (Ktor's parameter() calls toString()).
    expect(scopes("?scopes=PAYMENTS&scopes=ACCOUNTS_BASIC")).toEqual(["payments", "accounts_basic"]);
  });

  it("shows the granted scopes on the consent page, whatever the encoding", async () => {
    for (const query of [
      "?scopes%5B0%5D=payments&scopes%5B1%5D=accounts_balances",
      "?scopes=payments,accounts_balances",
      "?scopes=payments&scopes=accounts_balances",
    ]) {
      const { json } = await startAuth(s.api, `${query}&bankId=SEB_LT_SAND`);
      const flow = await openLink(String(json.authorizationLink));
      await flow.post("login", { username: "test", password: "1234" });
      const { html } = await flow.page();
      expect(html).toContain("<h1>Allow access to your account</h1>");
      expect(html).toContain(
        "<li>Start payments from your account</li><li>See your balances</li><li>See your account details</li>",
      );
      expect(html).toMatch(/<li>Everyday account: LT\d{18}<\/li><li>Savings account: LT\d{18}<\/li>/);
    }
  });

  it("refuses bad requests with the envelope", async () => {
    const cases: [string, Record<string, string>, string | undefined, unknown][] = [
      [
        "?scopes=payments",
        { "Request-Id": "" },
        undefined,
        { error: { name: "InvalidRequest", code: 10019 }, data: '"Request-Id" is required' },
      ],
      ["?scopes=payments", { "Redirect-URL": "/relative" }, undefined, { error: { name: "InvalidRedirect" } }],
      ["", {}, undefined, { error: { name: "InvalidScopes", code: 10022 }, data: '"scopes" is required' }],
      [
        "?scopes=payments&scopes=everything",
        {},
        undefined,
        { error: { name: "InvalidScopes" }, data: expect.stringMatching(/^"scopes\[1\]" must be one of \[payments, /) },
      ],
      ["?scopes=payments&bankId=NOPE", {}, undefined, { error: { name: "InvalidBankId" } }],
      [
        "?scopes=payments&bankId=REVOLUT_LT_SAND",
        {},
        undefined,
        { error: { name: "InvalidBankId", description: 'Bank "REVOLUT_LT_SAND" does not support account linking.' } },
      ],
      ["?scopes=payments&countryCode=Lithuania", {}, undefined, { error: { name: "InvalidCountryCode" } }],
      [
        "?scopes=payments",
        {},
        JSON.stringify({ email: "nope" }),
        { error: { name: "InvalidRequest" }, data: '"email" must be a valid email' },
      ],
      ["?scopes=payments", { "Webhook-URL": "nope" }, undefined, { error: { name: "InvalidWebhookUrl" } }],
    ];
    for (const [query, headers, body, expected] of cases) {
      const { status, json } = await startAuth(s.api, query, { headers, ...(body !== undefined && { body }) });
      expect({ status, json }).toMatchObject({ status: 400, json: expected as object });
    }
    // Webhook-URL on /auth came with v0.3: before, it is ignored.
    expect((await startAuth(s.v("v0.2"), "?scopes=payments", { headers: { "Webhook-URL": "nope" } })).status).toBe(200);
    expect((await startAuth(s.api, "?scopes=payments", { headers: { "Client-Secret": "x" } })).status).toBe(401);
  });

  it("refuses card linking where there are no cards: the no-card project, and before v0.3", async () => {
    const body = JSON.stringify({ cardMethod: {} });
    expect((await startAuth(s.api, "?scopes=payments", { headers: nocardCredentials, body })).json).toMatchObject({
      error: { code: 10020, name: "InvalidPaymentMethod" },
    });
    expect((await startAuth(s.v("v0.2"), "?scopes=payments", { body })).json).toMatchObject({
      error: { name: "InvalidPaymentMethod", description: "Card linking needs API v0.3." },
    });
  });

  it("refuses scopes the project does not have", async () => {
    const { status, json } = await startAuth(s.api, "?scopes=payments&scopes=accounts_details", {
      headers: nocardCredentials,
    });
    expect(status).toBe(400);
    expect(json).toMatchObject({
      error: { name: "InvalidScopes" },
      data: '"scopes[1]" is not enabled for this project',
    });
  });
});

describe("hosted account linking", () => {
  it("bank choice (linkable banks only), login, consent, then requestId, code and status=success", async () => {
    const { json } = await startAuth(s.api, "?scopes=payments", {
      headers: { "Request-Id": "order-77", "Redirect-URL": "https://shop.example/linked?x=1" },
    });
    const flow = await openLink(String(json.authorizationLink));
    const banks = await flow.page();
    expect(banks.html).toContain("<h1>Choose your bank</h1>");
    expect(banks.html).toContain("· Sandbox account linking</title>");
    expect(banks.html).toContain('value="SEB_LT_SAND"');
    expect(banks.html).not.toContain('value="REVOLUT_LT_SAND"');
    await flow.post("bank", { bankId: "SWEDBANK_LT_SAND" });
    expect((await flow.page()).html).toContain("<h1>Log in to Swedbank</h1>");
    expect(await flow.post("login", { username: "test", password: "nope" })).toMatchObject({
      location: expect.stringContaining("?error=credentials"),
    });
    await flow.post("login", { username: "test", password: "1234" });
    const consent = await flow.page();
    expect(consent.html).toContain("Sandbox test project asks for access to your Swedbank accounts:");
    const back = await flow.post("allow");
    expect(back.status).toBe(303);
    expect(back.location).toMatch(
      /^https:\/\/shop\.example\/linked\?x=1&requestId=order-77&code=[0-9a-f]{48}&status=success$/,
    );
    expect((await flow.page()).html).toContain("<h1>Account linked</h1>");
  });

  it("card linking: the test card (and its code) instead of bank and login; its issuing bank is linked", async () => {
    const { json } = await startAuth(s.api, "?scopes=payments", {
      body: JSON.stringify({ cardMethod: {}, email: "payer@example.com" }),
      headers: { "Request-Id": "card-1" },
    });
    const flow = await openLink(String(json.authorizationLink));
    const form = await flow.page();
    expect(form.html).toContain("<h1>Link your card</h1>");
    expect(form.html).toContain('<label for="number">Card number</label>');
    expect((await flow.post("card", { number: "4111", expiry: "12/39", cvc: "123", name: "A" })).location).toContain(
      "?error=number",
    );
    await flow.post("card", { number: "4000 0000 0000 3220", expiry: "12/39", cvc: "123", name: "A" });
    expect((await flow.page()).html).toContain("<h1>Confirm with your card issuer</h1>");
    expect((await flow.post("otp", { otp: "1" })).location).toContain("?error=otp");
    await flow.post("otp", { otp: "123456" });
    expect((await flow.page()).html).toContain("asks for access to your SEB accounts");
    const code = new URL((await flow.post("allow")).location).searchParams.get("code");
    const token = (await postJson(`${s.api}/auth/token`, { grantType: "authorizationCode", code })).json as {
      accessToken: string;
    };
    expect((await getJson(`${s.api}/auth/token/content`, bearer(token.accessToken))).json).toMatchObject({
      bankId: "SEB_LT_SAND",
      bankName: "SEB",
    });

    const declined = await startAuth(s.api, "?scopes=payments", {
      body: JSON.stringify({ cardMethod: {} }),
      headers: { "Request-Id": "card-2" },
    });
    const other = await openLink(String(declined.json.authorizationLink));
    expect(
      (await other.post("card", { number: "4000000000000002", expiry: "12/39", cvc: "123", name: "A" })).location,
    ).toBe("https://shop.example/linked?requestId=card-2&status=failure");
  });

  it("Deny (or Cancel) goes back with status=failure and the requestId", async () => {
    for (const action of ["deny", "cancel"]) {
      const { json } = await startAuth(s.api, "?scopes=payments&bankId=SEB_LT_SAND", {
        headers: { "Request-Id": "r-9" },
      });
      const flow = await openLink(String(json.authorizationLink));
      await flow.post("login", { username: "test", password: "1234" });
      expect((await flow.post(action)).location).toBe("https://shop.example/linked?requestId=r-9&status=failure");
    }
  });

  it("the authorizationLink works once and for 48 hours", async () => {
    const used = await startAuth(s.api, "?scopes=payments");
    await openLink(String(used.json.authorizationLink));
    const again = await getPage(String(used.json.authorizationLink));
    expect(again.status).toBe(410);
    expect(again.html).toContain("This link was already used");

    const late = await startAuth(s.api, "?scopes=payments");
    await control(s).post("/clock", { advanceMs: 48 * HOUR });
    const expired = await getPage(String(late.json.authorizationLink));
    expect(expired.status).toBe(410);
    expect(expired.html).toContain("This link has expired");
    expect((await getPage(`${s.baseUrl}/auth/nope`)).status).toBe(404);
  });
});

describe("POST /auth/token and GET /auth/token/content", () => {
  it("trades the code for a Token (lifetimes in milliseconds), once", async () => {
    const { json } = await startAuth(s.api, "?scopes=payments&bankId=LHV_EE_SAND");
    const flow = await openLink(String(json.authorizationLink));
    await flow.post("login", { username: "test", password: "1234" });
    const code = new URL((await flow.post("allow")).location).searchParams.get("code");
    const token = await postJson(`${s.api}/auth/token`, { grantType: "authorizationCode", code });
    expect(token).toEqual({
      status: 200,
      json: {
        authId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        tokenType: "Bearer",
        accessToken: expect.stringMatching(/^[0-9a-f]{64}$/),
        accessTokenExpiresIn: HOUR,
        refreshToken: expect.stringMatching(/^[0-9a-f]{64}$/),
        refreshTokenExpiresIn: 90 * 24 * HOUR,
      },
    });
    const again = await postJson(`${s.api}/auth/token`, { grantType: "authorizationCode", code });
    expect(again).toEqual({
      status: 400,
      json: { error: { code: 10023, name: "InvalidGrant", description: expect.any(String) }, data: {} },
    });

    const content = await getJson(
      `${s.api}/auth/token/content`,
      bearer((token.json as { accessToken: string }).accessToken),
    );
    expect(content).toEqual({
      status: 200,
      json: { clientConsent: true, expiresIn: HOUR, bankName: "LHV", bankId: "LHV_EE_SAND" },
    });
  });

  it("refuses a code from another project, an expired code and malformed bodies", async () => {
    const code = async () => {
      const { json } = await startAuth(s.api, "?scopes=payments&bankId=SEB_LT_SAND");
      const flow = await openLink(String(json.authorizationLink));
      await flow.post("login", { username: "test", password: "1234" });
      return new URL((await flow.post("allow")).location).searchParams.get("code");
    };
    expect(
      (await postJson(`${s.api}/auth/token`, { grantType: "authorizationCode", code: await code() }, nocardCredentials))
        .json,
    ).toMatchObject({
      error: { name: "InvalidGrant" },
    });
    const late = await code();
    await control(s).post("/clock", { advanceMs: 10 * 60 * 1000 });
    expect((await postJson(`${s.api}/auth/token`, { grantType: "authorizationCode", code: late })).json).toMatchObject({
      error: { name: "InvalidGrant" },
    });
    expect((await postJson(`${s.api}/auth/token`, { grantType: "authorizationCode" })).json).toMatchObject({
      data: '"code" is required',
    });
    expect((await postJson(`${s.api}/auth/token`, { grantType: "password" })).json).toMatchObject({
      data: '"grantType" must be one of [authorizationCode, refreshToken]',
    });
    expect((await postJson(`${s.api}/auth/token`, "not json")).json).toMatchObject({
      data: '"value" must be of type object',
    });
  });

  it("refreshes with rotation: the old refresh token dies, the 90 days do not restart", async () => {
    const first = await linkAccount(s.api);
    await control(s).post("/clock", { advanceMs: 2 * HOUR });
    expect((await getJson(`${s.api}/auth/token/content`, bearer(first.accessToken))).json).toMatchObject({
      error: { code: 10005, name: "InvalidToken" },
    });
    const refreshed = await postJson(`${s.api}/auth/token`, {
      grantType: "refreshToken",
      refreshToken: first.refreshToken,
    });
    expect(refreshed.json).toMatchObject({
      authId: first.authId,
      accessTokenExpiresIn: HOUR,
      refreshTokenExpiresIn: 90 * 24 * HOUR - 2 * HOUR,
    });
    expect(
      (await postJson(`${s.api}/auth/token`, { grantType: "refreshToken", refreshToken: first.refreshToken })).json,
    ).toMatchObject({
      error: { name: "InvalidGrant" },
    });
    expect((await postJson(`${s.api}/auth/token`, { grantType: "refreshToken" })).json).toMatchObject({
      data: '"refreshToken" is required',
    });
    const next = refreshed.json as { accessToken: string };
    expect((await getJson(`${s.api}/auth/token/content`, bearer(next.accessToken))).status).toBe(200);
  });

  it("answers 401 InvalidToken without a valid Bearer token", async () => {
    const invalid = {
      status: 401,
      json: { error: { code: 10005, name: "InvalidToken", description: expect.any(String) }, data: {} },
    };
    expect(await getJson(`${s.api}/auth/token/content`)).toEqual(invalid);
    expect(await getJson(`${s.api}/auth/token/content`, bearer("nope"))).toEqual(invalid);
    const other = await linkAccount(s.api);
    expect(
      await getJson(`${s.api}/auth/token/content`, {
        ...nocardCredentials,
        Authorization: `Bearer ${other.accessToken}`,
      }),
    ).toEqual(invalid);
  });
});

describe("linked-account payments", () => {
  it("skip login and account choice: the confirmLink opens at the confirm step with the linked account", async () => {
    const token = await linkAccount(s.api, "payments", "CITADELE_LV_SAND");
    const { status, json } = await initiate(s.api, { headers: { Authorization: `Bearer ${token.accessToken}` } });
    expect(status).toBe(200);
    const id = String(json.id);
    expect((await getJson(`${s.api}/pis/payment/${id}`)).json).toMatchObject({
      bankPaymentMethod: {
        bankId: "CITADELE_LV_SAND",
        debtorAccount: { iban: expect.stringMatching(/^LV\d{2}PARX\d{13}$/) },
      },
    });
    const flow = await openLink(String(json.confirmLink));
    const { html } = await flow.page();
    expect(html).toContain("<h1>Confirm payment</h1>");
    expect(html).toMatch(/You pay from your linked Citadele account LV\d{2}PARX\d{13}\./);
    expect(html).not.toContain('name="account"');
    expect(html).not.toContain("Step ");
    await flow.post("approve");
    expect((await getJson(`${s.api}/pis/payment/${id}/status`)).json).toEqual({
      bankStatus: "ACSC",
      group: "completed",
    });
  });

  it("refuses a bad token, a token without the payments scope, another bank, and cards", async () => {
    expect((await initiate(s.api, { headers: { Authorization: "Bearer nope" } })).json).toMatchObject({
      error: { name: "InvalidToken" },
    });
    const ais = await linkAccount(s.api, "accounts_basic");
    expect(await initiate(s.api, { headers: { Authorization: `Bearer ${ais.accessToken}` } })).toMatchObject({
      status: 401,
      json: { error: { code: 10025, name: "InsufficientScope" } },
    });
    const token = await linkAccount(s.api, "payments", "SEB_LT_SAND");
    const auth = { Authorization: `Bearer ${token.accessToken}` };
    expect((await initiate(s.api, { headers: auth, query: "?bankId=SWEDBANK_LT_SAND" })).json).toMatchObject({
      error: { name: "InvalidBankId" },
    });
    expect((await initiate(s.api, { headers: auth, body: paymentBody({ cardPaymentMethod: {} }) })).json).toMatchObject(
      { error: { name: "InvalidPaymentMethod" } },
    );
  });
});
