import type { Page } from "@playwright/test";

/**
 * For the Playwright specs e2e/sandbox-*.spec.ts, which drive the hosted pages directly. Everything
 * goes over HTTP to the running sandbox (SANDBOX_URL, set by e2e/playwright.config.ts), as a
 * merchant and a test would: nothing here reaches into the sandbox's code.
 */

export const SHOP_RETURN = "https://shop.example/return";

function sandboxUrl(): string {
  const url = process.env.SANDBOX_URL;
  if (!url) throw new Error("SANDBOX_URL is not set (e2e/playwright.config.ts sets it)");
  return url;
}

const CREDENTIALS = { "Client-Id": "sandbox-client-id", "Client-Secret": "sandbox-client-secret" };

/** POST /pis/payment with the sandbox test project; `query` takes bankId, lang, paymentMethodPreferred, ... */
export async function createPayment(opts: { query?: string; card?: boolean; version?: string } = {}) {
  const body = {
    amount: "24.90",
    currencyCode: "EUR",
    description: "Order E2E-1",
    bankPaymentMethod: {
      endToEndId: `e2e-${Date.now()}`,
      creditorName: "Demo Shop UAB",
      creditorAccount: { iban: "LT601010012345678901" },
    },
    ...(opts.card && { cardPaymentMethod: {} }),
  };
  const res = await fetch(`${sandboxUrl()}/platform/${opts.version ?? "v0.3"}/pis/payment${opts.query ?? ""}`, {
    method: "POST",
    headers: { ...CREDENTIALS, "Content-Type": "application/json", "Redirect-URL": SHOP_RETURN },
    body: JSON.stringify(body),
  });
  if (res.status !== 200) throw new Error(`initiation failed: ${res.status} ${await res.text()}`);
  return (await res.json()) as { id: string; confirmLink: string };
}

/** POST /auth with the sandbox test project; returns the authorizationLink. */
export async function startLinking(query: string, body: unknown = {}) {
  const res = await fetch(`${sandboxUrl()}/platform/v0.3/auth${query}`, {
    method: "POST",
    headers: {
      ...CREDENTIALS,
      "Content-Type": "application/json",
      "Request-Id": `e2e-${Date.now()}`,
      "Redirect-URL": SHOP_RETURN,
    },
    body: JSON.stringify(body),
  });
  if (res.status !== 200) throw new Error(`POST /auth failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { authorizationLink: string }).authorizationLink;
}

export async function paymentStatus(id: string) {
  const res = await fetch(`${sandboxUrl()}/platform/v0.3/pis/payment/${id}/status`, { headers: CREDENTIALS });
  return (await res.json()) as Record<string, unknown>;
}

/** The sandbox's control API (lib/sandbox/README.md). */
export async function controlPost(path: string, body: unknown) {
  const res = await fetch(`${sandboxUrl()}/_sandbox${path}`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      "X-Sandbox-Secret": process.env.SANDBOX_CONTROL_SECRET || "sandbox-control-secret",
    },
    body: JSON.stringify(body),
  });
  if (res.status !== 200) throw new Error(`control API ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

export function sandboxPage(path: string): string {
  return `${sandboxUrl()}${path}`;
}

/** Stands in for the merchant's landing page, so the final redirect lands without a network. */
export async function routeShop(page: Page) {
  await page.route(`${SHOP_RETURN}**`, (route) =>
    route.fulfill({
      contentType: "text/html",
      body: '<!doctype html><html lang="en"><title>Shop</title><main><h1>Back at the shop</h1></main></html>',
    }),
  );
}

/** The merchant's landing as the browser reached it: the query the sandbox appended. */
export function landing(page: Page): URLSearchParams {
  return new URL(page.url()).searchParams;
}
