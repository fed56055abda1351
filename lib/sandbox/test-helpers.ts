import { createSandbox, type Sandbox, type SandboxOptions } from "./app";
import { DEFAULT_PROJECT } from "./projects";

/** Shared by the sandbox's tests: a running sandbox on a free port and small HTTP helpers. */

export interface RunningSandbox {
  sandbox: Sandbox;
  baseUrl: string;
  api: string;
}

export async function startSandbox(opts: SandboxOptions = {}): Promise<RunningSandbox> {
  const sandbox = createSandbox(opts);
  const baseUrl = await sandbox.listen(0);
  return { sandbox, baseUrl, api: `${baseUrl}/platform/v0.3` };
}

export const credentials = {
  "Client-Id": DEFAULT_PROJECT.clientId,
  "Client-Secret": DEFAULT_PROJECT.clientSecret,
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

export async function initiate(
  api: string,
  opts: { body?: unknown; query?: string; redirectUrl?: string; webhookUrl?: string; headers?: Record<string, string> } = {},
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

/** Posts a hosted-page form like a browser would, without following the redirect. */
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

export async function getPage(url: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, { headers });
  return { status: response.status, html: await response.text(), headers: response.headers };
}

export async function waitFor<T>(check: () => T | undefined, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
