import { expect } from "vitest";
import { DEFAULT_CONTROL_SECRET, createSandbox, type Sandbox, type SandboxOptions } from "./app";
import { DEFAULT_PROJECT, NOCARD_PROJECT } from "./projects";
import type { ApiVersion } from "./versions";

/** Shared by the sandbox's tests: a running sandbox on a free port and small HTTP helpers. */

export interface RunningSandbox {
  sandbox: Sandbox;
  baseUrl: string;
  /** The v0.3 API base. */
  api: string;
  /** The API base of a version. */
  v: (version: ApiVersion) => string;
}

export async function startSandbox(opts: SandboxOptions = {}): Promise<RunningSandbox> {
  const sandbox = createSandbox(opts);
  const baseUrl = await sandbox.listen(0);
  return { sandbox, baseUrl, api: `${baseUrl}/platform/v0.3`, v: (version) => `${baseUrl}/platform/${version}` };
}

/** The header every control call sends. */
export const CONTROL = { "X-Sandbox-Secret": DEFAULT_CONTROL_SECRET };

export const credentials = {
  "Client-Id": DEFAULT_PROJECT.clientId,
  "Client-Secret": DEFAULT_PROJECT.clientSecret,
};

export const nocardCredentials = {
  "Client-Id": NOCARD_PROJECT.clientId,
  "Client-Secret": NOCARD_PROJECT.clientSecret,
};

export function paymentBody(overrides: Record<string, unknown> = {}) {
  return {
    amount: "12.30",
    currencyCode: "EUR",
    description: "Order 1042",
    bankPaymentMethod: {
      endToEndId: "1042",
      creditorName: "Demo Shop UAB",
      creditorAccount: { iban: "LT601010012345678901" },
    },
    identifier: { email: "payer@example.com" },
    ...overrides,
  };
}

/** The v0.1 (and v0.2) flat body. */
export function flatPaymentBody(overrides: Record<string, unknown> = {}) {
  return {
    amount: "12.30",
    currencyCode: "EUR",
    endToEndId: "1042",
    informationUnstructured: "Order 1042",
    creditorName: "Demo Shop UAB",
    creditorAccount: { iban: "LT601010012345678901" },
    ...overrides,
  };
}

export async function initiate(
  api: string,
  opts: {
    body?: unknown;
    query?: string;
    redirectUrl?: string;
    webhookUrl?: string;
    headers?: Record<string, string>;
  } = {},
) {
  const headers: Record<string, string> = {
    ...credentials,
    "Content-Type": "application/json",
    "Redirect-URL": opts.redirectUrl ?? "https://shop.example/return",
    ...(opts.webhookUrl !== undefined && { "Webhook-URL": opts.webhookUrl }),
    ...opts.headers,
  };
  const response = await fetch(`${api}/pis/payment${opts.query ?? ""}`, {
    method: "POST",
    headers,
    body: JSON.stringify(opts.body ?? paymentBody()),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

/** Creates a payment and returns its id and confirmLink; fails the test if the API refuses. */
export async function createPayment(api: string, opts: Parameters<typeof initiate>[1] = {}) {
  const { status, json } = await initiate(api, opts);
  if (status !== 200) throw new Error(`initiation failed: ${status} ${JSON.stringify(json)}`);
  return { id: String(json.id), confirmLink: String(json.confirmLink) };
}

export async function getJson(url: string, headers: Record<string, string> = credentials) {
  const response = await fetch(url, { headers });
  return { status: response.status, json: (await response.json()) as unknown };
}

export async function postJson(url: string, body: unknown, headers: Record<string, string> = credentials) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as unknown };
}

export async function getPage(url: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, { headers, redirect: "manual" });
  return { status: response.status, html: await response.text(), headers: response.headers };
}

/**
 * A browser on a hosted flow (payment or linking): opens the single-use link, keeps its cookie and
 * posts the flow's forms like a browser would, without following redirects.
 */
export async function openLink(link: string, headers: Record<string, string> = {}) {
  const first = await fetch(link, { headers, redirect: "manual" });
  await first.body?.cancel();
  expect(first.status).toBe(303);
  const cookie = (first.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
  const origin = new URL(link).origin;
  const location = first.headers.get("location") ?? "";
  // The flow lives where the link sends the browser (`.../step`), whichever entry URL was opened.
  const base = new URL(location, origin).pathname.replace(/\/step$/, "");
  return {
    cookie,
    /** Where the link sent the browser: the flow's own page, maybe with an error to show. */
    location,
    /** The flow's own page (where every step lands). */
    stepUrl: `${origin}${location}`,
    async page(query = "", extra: Record<string, string> = {}) {
      return getPage(`${origin}${base}/step${query}`, { cookie, ...headers, ...extra });
    },
    async post(action: string, fields: Record<string, string> = {}) {
      const response = await fetch(`${origin}${base}/${action}`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", cookie },
        body: new URLSearchParams(fields).toString(),
        redirect: "manual",
      });
      await response.body?.cancel();
      return { status: response.status, location: response.headers.get("location") ?? "" };
    },
  };
}

/** Posts a form without a session cookie (a stranger's browser). */
export async function postForm(url: string, fields: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
    redirect: "manual",
  });
  await response.body?.cancel();
  return { status: response.status, location: response.headers.get("location") ?? "" };
}

/** Walks a bank payment through the hosted page: bank, login, then the given decision. */
export async function payAtBank(
  confirmLink: string,
  decision: "approve" | "reject" | "pending" | "cancel" = "approve",
  user = "test",
) {
  const flow = await openLink(confirmLink);
  const page = await flow.page();
  if (page.html.includes('name="bankId"')) await flow.post("bank", { bankId: "SEB_LT_SAND" });
  expect(await flow.post("login", { username: user, password: "1234" })).toMatchObject({ status: 303 });
  return { flow, answer: await flow.post(decision) };
}

export async function waitFor<T>(check: () => T | undefined | Promise<T | undefined>, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export const control = (s: RunningSandbox) => ({
  get: (path: string) => getJson(`${s.baseUrl}/_sandbox${path}`, CONTROL),
  post: (path: string, body: unknown = {}) => postJson(`${s.baseUrl}/_sandbox${path}`, body, CONTROL),
});

/** POST /auth with the usual headers; `query` carries the scopes. */
export async function startAuth(
  api: string,
  query: string,
  opts: { headers?: Record<string, string>; body?: string } = {},
) {
  const response = await fetch(`${api}/auth${query}`, {
    method: "POST",
    headers: { ...credentials, "Request-Id": "req-1", "Redirect-URL": "https://shop.example/linked", ...opts.headers },
    ...(opts.body !== undefined && { body: opts.body }),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

/** Links a test account end to end (POST /auth, the hosted consent, POST /auth/token); returns the Token. */
export async function linkAccount(api: string, scopes = "payments", bankId = "SEB_LT_SAND", user = "test") {
  const { json } = await startAuth(api, `?bankId=${bankId}&scopes=${scopes}`);
  const flow = await openLink(String(json.authorizationLink));
  await flow.post("login", { username: user, password: "1234" });
  const back = new URL((await flow.post("allow")).location);
  const token = await postJson(`${api}/auth/token`, {
    grantType: "authorizationCode",
    code: back.searchParams.get("code"),
  });
  expect(token.status).toBe(200);
  return token.json as {
    authId: string;
    accessToken: string;
    refreshToken: string;
    accessTokenExpiresIn: number;
    refreshTokenExpiresIn: number;
  };
}
