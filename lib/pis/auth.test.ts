import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUTH_STARTED, INITIATED_BANK, TOKEN, TOKEN_CONTENT } from "./test-fixtures";
import {
  linkAccount,
  PAYMENT_INPUT,
  rejection,
  RETURN_URL,
  sandboxClient,
  startRecordedProvider,
  type RecordedProvider,
} from "./test-helpers";
import { API_VERSIONS } from "./versions";

describe.each(API_VERSIONS)("account linking with the sandbox, %s", (version) => {
  it("starts linking and answers an authorization link with its state", async () => {
    const started = await sandboxClient(version).auth.start({
      scopes: ["payments"],
      requestId: "req-1",
      redirectUrl: RETURN_URL,
      bankId: "SEB_LT_SAND",
      lang: "lt",
    });
    expect(started.state).not.toBe("");
    expect(new URL(started.authorizationLink).protocol).toMatch(/^https?:$/);
  });

  it("refuses a missing redirect URL with InvalidRedirect", async () => {
    const err = await rejection(
      sandboxClient(version).auth.start({ scopes: ["payments"], requestId: "req-2", redirectUrl: "nowhere" }),
    );
    expect(err).toMatchObject({ kind: "http", httpStatus: 400, providerName: "InvalidRedirect" });
  });

  if (version !== "v0.3") {
    it("refuses a Webhook-URL on /auth before sending: the version has none", async () => {
      const err = await rejection(
        sandboxClient(version).auth.start({
          scopes: ["payments"],
          requestId: "req-3",
          redirectUrl: RETURN_URL,
          webhookUrl: "http://shop.test/hook",
        }),
      );
      expect(err).toMatchObject({ kind: "unsupported", operation: "startAuth" });
    });
  }
});

describe("account linking with the sandbox, v0.3", () => {
  const pis = () => sandboxClient("v0.3");

  it("takes a Webhook-URL and the payer's email", async () => {
    const started = await pis().auth.start({
      scopes: ["payments"],
      requestId: "req-4",
      redirectUrl: RETURN_URL,
      webhookUrl: "http://shop.test/api/webhooks/pis",
      email: "payer@example.com",
      redirectPreferred: false,
    });
    expect(started.state).not.toBe("");
  });

  it("starts card linking", async () => {
    const started = await pis().auth.start({
      scopes: ["payments"],
      requestId: "req-5",
      redirectUrl: RETURN_URL,
      cardMethod: true,
    });
    expect(started.authorizationLink).toContain(started.state);
  });

  it("exchanges the code from the redirect for tokens, reads their content and refreshes them", async () => {
    const token = await linkAccount(pis(), ["payments"], "SWEDBANK_LT_SAND");
    expect(token.tokenType).toMatch(/^bearer$/i);
    expect(token.accessTokenExpiresIn).toBeGreaterThan(0);

    const content = await pis().auth.tokenContent(token.accessToken);
    expect(content).toMatchObject({ bankId: "SWEDBANK_LT_SAND" });
    expect(typeof content.clientConsent).toBe("boolean");

    const refreshed = await pis().auth.refresh(token.refreshToken);
    expect(refreshed.accessToken).not.toBe("");
    expect((await pis().auth.tokenContent(refreshed.accessToken)).bankId).toBe("SWEDBANK_LT_SAND");
  });

  it("pays from the linked account with its access token", async () => {
    const token = await linkAccount(pis(), ["payments"]);
    const started = await pis().payments.initiate({ ...PAYMENT_INPUT, accessToken: token.accessToken });
    expect(started.status.group).toBe("started");
  });

  it("refuses a code it never issued", async () => {
    expect(await rejection(pis().auth.exchangeCode("not-a-code"))).toMatchObject({ kind: "http" });
  });

  it("refuses the content of an unknown token", async () => {
    const err = await rejection(pis().auth.tokenContent("not-a-token"));
    expect(err.kind).toBe("http");
    expect([400, 401]).toContain(err.httpStatus);
  });
});

describe("account linking from recorded responses", () => {
  let provider: RecordedProvider;
  beforeAll(async () => {
    provider = await startRecordedProvider();
  });
  afterAll(() => provider.close());

  it("posts /auth with scopes as repeated keys, its query, headers and body", async () => {
    provider.reply({ json: AUTH_STARTED });
    const started = await provider.client().auth.start({
      scopes: ["accounts_details", "accounts_balances"],
      requestId: "req-9",
      redirectUrl: RETURN_URL,
      webhookUrl: "https://shop.example/hook",
      bankId: "SEB_LT",
      redirectPreferred: true,
      lang: "en",
      email: "payer@example.com",
      cardMethod: true,
    });
    expect(started).toEqual(AUTH_STARTED);
    const req = provider.only();
    expect(req).toMatchObject({ method: "POST", path: "/v0.3/auth" });
    expect(req.query.getAll("scopes")).toEqual(["accounts_details", "accounts_balances"]);
    expect(Object.fromEntries([...req.query].filter(([k]) => k !== "scopes"))).toEqual({
      bankId: "SEB_LT",
      redirectPreferred: "true",
      lang: "en",
    });
    expect(req.headers).toMatchObject({
      "request-id": "req-9",
      "redirect-url": RETURN_URL,
      "webhook-url": "https://shop.example/hook",
    });
    expect(JSON.parse(req.body)).toEqual({ email: "payer@example.com", cardMethod: {} });
  });

  it("posts an empty body when there is no email or card", async () => {
    provider.reply({ json: AUTH_STARTED });
    await provider.client("v0.2").auth.start({ scopes: ["payments"], requestId: "r", redirectUrl: RETURN_URL });
    expect(provider.only().path).toBe("/v0.2/auth");
    expect(JSON.parse(provider.only().body)).toEqual({});
    expect(provider.only().headers["webhook-url"]).toBeUndefined();
  });

  it("exchanges a code and refreshes with POST /auth/token and their grant types", async () => {
    provider.reply({ json: TOKEN });
    expect(await provider.client().auth.exchangeCode("code-1")).toEqual(TOKEN);
    expect(provider.only()).toMatchObject({ method: "POST", path: "/v0.3/auth/token" });
    expect(JSON.parse(provider.only().body)).toEqual({ grantType: "authorizationCode", code: "code-1" });

    provider.reply({ json: TOKEN });
    await provider.client().auth.refresh("refresh-1");
    expect(JSON.parse(provider.only().body)).toEqual({ grantType: "refreshToken", refreshToken: "refresh-1" });
  });

  it("never retries a token exchange: a code is single use", async () => {
    provider.reply({ status: 503 }, { json: TOKEN });
    await rejection(provider.client().auth.exchangeCode("code-1"));
    expect(provider.requests).toHaveLength(1);
  });

  it("reads the token content with the Bearer header", async () => {
    provider.reply({ json: TOKEN_CONTENT });
    expect(await provider.client().auth.tokenContent("access-1")).toEqual(TOKEN_CONTENT);
    expect(provider.only()).toMatchObject({ method: "GET", path: "/v0.3/auth/token/content" });
    expect(provider.only().headers.authorization).toBe("Bearer access-1");
  });

  it("refuses a token without an access token", async () => {
    const { accessToken: _a, ...withoutAccess } = TOKEN;
    provider.reply({ json: withoutAccess });
    expect((await rejection(provider.client().auth.exchangeCode("c"))).description).toContain("accessToken");
  });

  it("refuses an authorization link that is not a URL", async () => {
    provider.reply({ json: { ...AUTH_STARTED, authorizationLink: "login?state=1" } });
    expect(
      (await rejection(provider.client().auth.start({ scopes: ["payments"], requestId: "r", redirectUrl: RETURN_URL })))
        .kind,
    ).toBe("parse");
  });

  it("pays from a linked account without doubling Bearer", async () => {
    provider.reply({ json: INITIATED_BANK });
    await provider.client().payments.initiate({ ...PAYMENT_INPUT, accessToken: "Bearer tok-2" });
    expect(provider.only().headers.authorization).toBe("Bearer tok-2");
  });
});
