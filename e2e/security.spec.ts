import { readdirSync, readFileSync, statSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { MERCHANT_KEY, createCheckout, serverActionIds } from "./journey";

/**
 * The security rules of design.md section 5, checked from outside against the running app:
 * headers and CSP on every page and API response, no credential in anything a browser can load,
 * a browser cannot change amount or creditor, no redirect to a foreign origin, unguessable ids,
 * and rate limits (docs/adr/0010-security-headers.md).
 */
const SANDBOX = process.env.SANDBOX_URL ?? "http://localhost:3101";
const root = fileURLToPath(new URL("..", import.meta.url));
// lib/env.ts SANDBOX_DEFAULTS: what the e2e app runs with.
const SECRETS = {
  PIS_CLIENT_SECRET: "sandbox-client-secret",
  PIS_WEBHOOK_SECRET: "sandbox-webhook-secret",
  MERCHANT_API_KEY: MERCHANT_KEY,
  MERCHANT_NOTIFY_SECRET: "dev-notify-secret",
};
const CREDITOR = { name: "Demo Shop UAB", iban: "LT601010012345678901" };

async function pagePaths(request: APIRequestContext): Promise<string[]> {
  const id = await createCheckout(request);
  return [
    "/",
    "/accessibility",
    `/checkout/${id}`,
    `/checkout/${id}?lang=lt`,
    `/checkout/${id}/return`,
    "/backoffice/login",
    "/checkout/co_does_not_exist",
  ];
}

function listFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? listFiles(p) : [p];
  });
}

test.describe("headers", () => {
  test("every page has a nonce CSP that its scripts carry, and the common security headers", async ({ request }) => {
    const nonces = new Set<string>();
    for (const p of await pagePaths(request)) {
      const res = await request.get(p, { maxRedirects: 0 });
      const csp = res.headers()["content-security-policy"] ?? "";
      expect(csp, p).toMatch(/script-src [^;]*'nonce-[A-Za-z0-9+/=]+'/);
      expect(csp, p).toContain("frame-ancestors 'none'");
      expect(csp, p).toContain("object-src 'none'");
      expect(csp, p).not.toMatch(/script-src[^;]*'unsafe-inline'/);
      // bank logos: the provider's origin is an allowed image source
      expect(csp, p).toMatch(new RegExp(`img-src [^;]*${SANDBOX.replace(/[.:/]/g, "\\$&")}`));
      const nonce = /'nonce-([^']+)'/.exec(csp)![1]!;
      nonces.add(nonce);
      const html = await res.text();
      for (const tag of html.match(/<script\b[^>]*>/g) ?? []) {
        // Next's scripts carry the nonce; the only other inline script is the <html lang> one, allowed by its hash.
        if (!tag.includes(`nonce="${nonce}"`)) expect(tag, `${p}: ${tag}`).toBe("<script>");
      }
      const h = res.headers();
      expect(h["x-content-type-options"], p).toBe("nosniff");
      expect(h["referrer-policy"], p).toBe("strict-origin-when-cross-origin");
      expect(h["permissions-policy"], p).toContain("camera=()");
      expect(h["x-frame-options"], p).toBe("DENY");
      // http here: HSTS only when APP_URL is https (ADR 10)
      expect(h["strict-transport-security"], p).toBeUndefined();
    }
    expect(nonces.size).toBe((await pagePaths(request)).length); // a fresh nonce per response
  });

  test("a page address that only starts like a static file's is a page, with the page headers", async ({ request }) => {
    for (const p of ["/embed.jsX", "/favicon.svg/x", "/stylesheet.cssx", "/_next/imagex", "/_next/staticx"]) {
      const res = await request.get(p);
      expect(res.status(), p).toBe(404);
      expect(res.headers()["content-security-policy"], p).toContain("frame-ancestors 'none'");
      expect(res.headers()["x-frame-options"], p).toBe("DENY");
      expect(res.headers()["x-content-type-options"], p).toBe("nosniff");
    }
    // The files themselves are still served as files.
    for (const p of ["/embed.js", "/favicon.svg", "/stylesheet.css"])
      expect((await request.get(p)).status(), p).toBe(200);
  });

  test("API responses, errors included, carry the API policy", async ({ request }) => {
    const id = await createCheckout(request);
    const responses = [
      await request.get("/api/health"),
      await request.get("/api/banks?country=LT"),
      await request.get("/api/banks?country=nope"),
      await request.get(`/api/checkouts/${id}/status`),
      await request.get(`/api/checkouts/${id}`),
      await request.post("/api/webhooks/pis", { data: {} }),
    ];
    for (const res of responses) {
      const h = res.headers();
      expect(h["content-security-policy"], res.url()).toBe(
        "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
      );
      expect(h["x-content-type-options"], res.url()).toBe("nosniff");
      expect(h["referrer-policy"], res.url()).toBeDefined();
      expect(res.status(), res.url()).toBeLessThan(500);
    }
  });

  test("pages run under the CSP with no violation: scripts hydrate, bank logos load, <html lang> is set", async ({
    page,
    request,
  }) => {
    const violations: string[] = [];
    page.on("console", (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(m.text());
    });
    for (const p of await pagePaths(request)) {
      await page.goto(p);
      await page.waitForLoadState("networkidle");
    }
    const id = await createCheckout(request);
    await page.goto(`/checkout/${id}?lang=lt`);
    await expect(page.locator("html")).toHaveAttribute("lang", "lt");
    // hydrated: the client island reacts to a click
    await page.getByRole("radio").first().check();
    await expect(page.getByRole("radio").first()).toBeChecked();
    const logos = page.locator("img[src^='http']");
    await expect(logos.first()).toBeVisible();
    const loaded = await logos.evaluateAll((imgs) =>
      imgs.slice(0, 5).map((i) => (i as HTMLImageElement).complete && (i as HTMLImageElement).naturalWidth > 0),
    );
    expect(loaded.every(Boolean)).toBe(true);
    expect(violations).toEqual([]);
  });
});

test("a path that is not valid percent-encoding is answered 400 with our headers, on pages and the API, not Next's bare 500", async ({
  request,
}) => {
  for (const path of ["/checkout/%ZZ", "/checkout/%FF/return", "/api/checkouts/%FF", "/api/checkouts/%ZZ/status"]) {
    const res = await request.get(path);
    expect(res.status(), path).toBe(400);
    expect(res.headers()["x-content-type-options"], path).toBe("nosniff");
    if (path.startsWith("/api/")) expect(await res.json(), path).toMatchObject({ code: "invalid_request" });
    else expect(res.headers()["content-security-policy"], path).toContain("frame-ancestors 'none'");
  }
  // Valid encoding still reaches the route: an unknown checkout, not a refusal of the path.
  expect((await request.get("/api/checkouts/co_%41/status")).status()).toBe(404);
});

test("a method an API route does not take is answered 405 problem+json with Allow, and OPTIONS names the same", async ({
  request,
}) => {
  const id = await createCheckout(request);
  const cases: [method: string, path: string, allow: string][] = [
    ["DELETE", "/api/checkouts", "GET, HEAD, POST, OPTIONS"],
    ["PUT", `/api/checkouts/${id}`, "GET, HEAD, OPTIONS"],
    ["POST", "/api/banks?country=LT", "GET, HEAD, OPTIONS"],
    ["GET", "/api/webhooks/pis", "POST, OPTIONS"],
    ["PATCH", `/api/checkouts/${id}/refunds`, "GET, HEAD, POST, OPTIONS"],
  ];
  for (const [method, path, allow] of cases) {
    const res = await request.fetch(path, { method });
    const where = `${method} ${path}`;
    expect(res.status(), where).toBe(405);
    expect(res.headers()["allow"], where).toBe(allow);
    expect(res.headers()["content-type"], where).toBe("application/problem+json");
    expect(await res.json(), where).toMatchObject({ code: "method_not_allowed", retry: false });
    expect(res.headers()["x-content-type-options"], where).toBe("nosniff");
    const options = await request.fetch(path, { method: "OPTIONS" });
    expect(options.status(), where).toBe(204);
    expect(options.headers()["allow"], where).toBe(allow);
  }
});

test("an address the API does not have is answered 404 problem+json not_found with the API's headers, whatever the method", async ({
  request,
}) => {
  const id = await createCheckout(request);
  const cases: [method: string, path: string][] = [
    ["GET", "/api/checkout"],
    ["POST", "/api/checkout"],
    ["POST", `/api/checkouts/${id}/refund`],
    ["GET", `/api/checkouts/${id}/status/now`],
    ["DELETE", "/api/nothing/at/all"],
    ["HEAD", "/api/banks/LT"],
  ];
  for (const [method, path] of cases) {
    const res = await request.fetch(path, { method, data: method === "POST" ? {} : undefined });
    const where = `${method} ${path}`;
    expect(res.status(), where).toBe(404);
    expect(res.headers()["content-type"], where).toBe("application/problem+json");
    if (method !== "HEAD") expect(await res.json(), where).toMatchObject({ code: "not_found", retry: false });
    expect(res.headers()["content-security-policy"], where).toBe(
      "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    );
    expect(res.headers()["x-content-type-options"], where).toBe("nosniff");
  }
});

test("no credential appears in any built client asset or page response", async ({ request }) => {
  const staticDir = path.join(root, ".next/static");
  const files = listFiles(staticDir);
  expect(files.length).toBeGreaterThan(10);
  for (const file of files) {
    const text = readFileSync(file, "latin1");
    for (const [name, value] of Object.entries(SECRETS))
      expect(text.includes(value), `${name} in ${path.relative(root, file)}`).toBe(false);
  }
  const id = await createCheckout(request);
  const pages = [
    ...(await pagePaths(request)),
    `/checkout/${id}/return?paymentId=x&statusGroup=completed`,
    "/backoffice",
    "/api/openapi.json",
    "/api/banks?country=LT",
    `/api/checkouts/${id}/status`,
  ];
  for (const p of pages) {
    const body = await (await request.get(p)).text();
    for (const [name, value] of Object.entries(SECRETS)) expect(body.includes(value), `${name} in ${p}`).toBe(false);
  }
});

test("a browser cannot change the amount, currency or creditor: the provider gets the server's", async ({
  request,
}) => {
  const reference = `tamper-${Date.now()}`;
  const id = await createCheckout(request, { reference, amount: "24.90" });
  const res = await request.post(`/api/checkouts/${id}/payments`, {
    data: {
      method: "bank",
      bankId: "SWEDBANK_LT_SAND",
      termsAccepted: true,
      attemptKey: `tamper-key-${Date.now()}`,
      amount: "0.01",
      currency: "PLN",
      currencyCode: "PLN",
      creditorName: "Mallory",
      creditorAccount: { iban: "LT121000011101001000" },
      bankPaymentMethod: {
        creditorName: "Mallory",
        creditorAccount: { iban: "LT121000011101001000" },
        endToEndId: "x",
      },
      description: "free stuff",
      endToEndId: "other",
    },
  });
  expect([200, 400]).toContain(res.status());
  if (res.status() === 400) return; // refused outright is as good; a 200 must not have obeyed
  const { confirmLink } = (await res.json()) as { confirmLink: string };
  expect(new URL(confirmLink).origin).toBe(new URL(SANDBOX).origin);
  const payments = (
    (await (await request.get(`${SANDBOX}/_sandbox/payments?endToEndId=${encodeURIComponent(reference)}`)).json()) as {
      data: Record<string, unknown>[];
    }
  ).data;
  expect(payments).toHaveLength(1);
  const p = payments[0]!;
  expect(Number(p.amount)).toBe(24.9);
  expect(p.currencyCode).toBe("EUR");
  // The creditor as the provider's own API reports it (the control API does not list it).
  const fromProvider = await request.get(`${SANDBOX}/platform/v0.3/pis/payment/${String(p.id)}`, {
    headers: { "Client-Id": "sandbox-client-id", "Client-Secret": SECRETS.PIS_CLIENT_SECRET },
  });
  expect(fromProvider.status()).toBe(200);
  const detail = (await fromProvider.json()) as {
    amount: string;
    currencyCode: string;
    bankPaymentMethod: { creditorName: string; creditorAccount: { iban: string } };
  };
  expect(Number(detail.amount)).toBe(24.9);
  expect(detail.bankPaymentMethod.creditorName).toBe(CREDITOR.name);
  expect(detail.bankPaymentMethod.creditorAccount.iban).toBe(CREDITOR.iban);
});

test("no response redirects to a foreign origin; confirmLink is on the provider's origin", async ({
  request,
  baseURL,
}) => {
  const id = await createCheckout(request);
  const evil = "https://evil.example/x";
  const paths = [
    "/",
    "/backoffice",
    `/backoffice?next=${encodeURIComponent(evil)}`,
    `/backoffice/login?next=${encodeURIComponent(evil)}&returnTo=//evil.example`,
    `/backoffice/checkouts/${id}`,
    `/checkout/${id}?returnUrl=${encodeURIComponent(evil)}&redirect=${encodeURIComponent(evil)}`,
    `/checkout/${id}/return?paymentId=x&statusGroup=completed&returnUrl=${encodeURIComponent(evil)}`,
    `/checkout/${id}/return?redirect=//evil.example`,
    "/%2F%2Fevil.example",
    "/%5Cevil.example",
    "/checkout/co_nope",
    "/api/health/",
    "/api/banks/",
  ];
  const locations: string[] = [];
  // Protocol-relative paths ("//evil.example") are sent as raw paths against our origin.
  for (const p of [...paths, "//evil.example/", "/\\evil.example/"]) {
    const res = await request.get(p.startsWith("//") || p.startsWith("/\\") ? `${baseURL}${p}` : p, {
      maxRedirects: 0,
    });
    const location = res.headers()["location"];
    if (location) {
      locations.push(location);
      expect(new URL(location, baseURL).origin, `${p} -> ${location}`).toBe(new URL(baseURL!).origin);
    }
  }
  expect(locations.length).toBeGreaterThan(0); // the crawl did meet redirects (e.g. /backoffice -> login)

  const start = await request.post(`/api/checkouts/${id}/payments`, {
    data: { method: "bank", termsAccepted: true, attemptKey: `redir-${Date.now()}` },
  });
  expect(start.status()).toBe(200);
  expect(new URL(((await start.json()) as { confirmLink: string }).confirmLink).origin).toBe(new URL(SANDBOX).origin);
});

test("checkout ids carry at least 128 random bits", async ({ request }) => {
  const N = 128;
  const ids = await Promise.all(
    Array.from({ length: N }, async (_, i) => {
      const res = await request.post("/api/checkouts", {
        headers: { Authorization: `Bearer ${MERCHANT_KEY}` },
        data: {
          amount: "1.00",
          currency: "EUR",
          description: "Entropy",
          reference: `ent-${i}`,
          returnUrl: "https://shop.example/",
        },
      });
      return ((await res.json()) as { id: string }).id;
    }),
  );
  expect(new Set(ids).size).toBe(N);
  const bits = ids.map((id) => {
    expect(id).toMatch(/^co_[A-Za-z0-9_-]+$/);
    const bytes = Buffer.from(id.slice(3), "base64url");
    return [...bytes].flatMap((b) => Array.from({ length: 8 }, (_, k) => (b >> k) & 1));
  });
  const width = bits[0]!.length;
  expect(width).toBeGreaterThanOrEqual(128);
  // Every bit position is a fair coin: with 128 ids, a count outside 64 +- 6 sd (34) has
  // probability ~2e-9 per position. A constant or biased position would not be random bits.
  let fair = 0;
  for (let k = 0; k < width; k += 1) {
    const ones = bits.reduce((n, b) => n + (b[k] ?? 0), 0);
    if (Math.abs(ones - N / 2) <= 34) fair += 1;
  }
  expect(fair).toBeGreaterThanOrEqual(128);
  expect(fair).toBe(width);
});

test("payment start is rate-limited per checkout: 429 problem+json rate_limited with Retry-After", async ({
  request,
}) => {
  const id = await createCheckout(request);
  const body = { method: "bank", termsAccepted: true, attemptKey: `rate-${Date.now()}` };
  const pay = (attemptKey: string) => request.post(`/api/checkouts/${id}/payments`, { data: { ...body, attemptKey } });
  // One submit repeated (double clicks, retries after a lost answer) starts nothing and is not counted.
  for (let i = 0; i < 12; i += 1) expect((await pay(body.attemptKey)).status()).toBe(200);
  // New starts are: the first is in flight, so the next nine are refused as such, the tenth as too many.
  const statuses: number[] = [];
  let limited: Awaited<ReturnType<APIRequestContext["post"]>> | undefined;
  for (let i = 0; i < 12; i += 1) {
    const res = await pay(`${body.attemptKey}-${i}`);
    statuses.push(res.status());
    if (res.status() === 429) {
      limited = res;
      break;
    }
  }
  expect(statuses.slice(0, 9)).toEqual(Array(9).fill(409));
  expect(limited, statuses.join(",")).toBeDefined();
  expect(limited!.headers()["content-type"]).toBe("application/problem+json");
  expect(Number(limited!.headers()["retry-after"])).toBeGreaterThan(0);
  expect(await limited!.json()).toMatchObject({ status: 429, code: "rate_limited" });
  // another checkout of the same payer is not affected
  const other = await createCheckout(request);
  expect(
    (
      await request.post(`/api/checkouts/${other}/payments`, { data: { ...body, attemptKey: `rate2-${Date.now()}` } })
    ).status(),
  ).toBe(200);
});

/** POSTs `size` bytes to the running app as a raw HTTP client would (declared or streamed without a length). */
function rawPost(
  baseURL: string,
  pathname: string,
  size: number,
  declareLength: boolean,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string }> {
  const url = new URL(pathname, baseURL);
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: "POST",
        headers: {
          "Content-Type": "text/plain;charset=UTF-8",
          Origin: url.origin,
          ...headers,
          ...(declareLength ? { "Content-Length": String(size) } : {}),
        },
      },
      (res) => {
        let body = "";
        res.on("data", (d: Buffer) => (body += d.toString()));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    // The server may answer and close before the whole body is sent: that is the point.
    req.on("error", (err) =>
      err.message.includes("EPIPE") || err.message.includes("ECONNRESET") ? undefined : reject(err),
    );
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    let sent = 0;
    const pump = () => {
      while (sent < size) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once("drain", pump);
      }
      req.end();
    };
    pump();
  });
}

test("a 10 MB body is refused with 413 on pages (server actions) and the API, and one streamed without a length with 411 or 413, never 5xx", async ({
  baseURL,
}) => {
  const tenMb = 10 * 1024 * 1024;
  for (const [pathname, headers] of [
    ["/backoffice/login", { "Next-Action": "0".repeat(42) }],
    ["/api/checkouts", { Authorization: `Bearer ${MERCHANT_KEY}`, "Content-Type": "application/json" }],
    ["/api/webhooks/pis", { "Content-Type": "application/json" }],
  ] as const) {
    const declared = await rawPost(baseURL!, pathname, tenMb, true, headers);
    expect([pathname, declared.status]).toEqual([pathname, 413]);
    expect(JSON.parse(declared.body).code).toBe("body_too_large");
    const streamed = await rawPost(baseURL!, pathname, tenMb, false, headers);
    expect([pathname, [411, 413].includes(streamed.status)]).toEqual([pathname, true]);
  }
});

test("a server action posted from another site is refused 403 before Next (which refused it with a 500)", async ({
  request,
}) => {
  for (const action of serverActionIds()) {
    const res = await request.post("/backoffice/login", {
      headers: { "Next-Action": action, Origin: "https://evil.example" },
      multipart: { password: "guess" },
      maxRedirects: 0,
    });
    expect([action, res.status()]).toEqual([action, 403]);
    expect(await res.json()).toMatchObject({ code: "cross_site_action" });
    expect(res.headers()["x-content-type-options"]).toBe("nosniff");
  }
});

test("a payer's form posted from another site's page is refused 403: no payment, no saving started, the payer's cookie untouched", async ({
  request,
}) => {
  const id = await createCheckout(request, { customerId: "customer-csrf" });
  for (const [path, form] of [
    [`/checkout/${id}/pay`, { choice: "here", bankId: "SEB_LT_SAND", terms: "on", remember: "on" }],
    [`/checkout/${id}/abandon`, {}],
    [`/checkout/${id}/saved-account/forget`, {}],
  ] as const) {
    const res = await request.post(path, { headers: { Origin: "https://evil.example" }, form, maxRedirects: 0 });
    expect([path, res.status()]).toEqual([path, 403]);
    expect(res.headers()["set-cookie"]).toBeUndefined();
  }
  const view = await request.get(`/api/checkouts/${id}`, { headers: { Authorization: `Bearer ${MERCHANT_KEY}` } });
  expect(await view.json()).toMatchObject({ status: "open", attempts: [] });
});

test("another site's text/plain form that posts JSON to the payer's API is refused in the browser: no payer handle, no saving started", async ({
  page,
  request,
  baseURL,
}) => {
  const id = await createCheckout(request, { customerId: "customer-csrf-json" });
  const target = `${baseURL}/api/checkouts/${id}/saved-account`;
  // The field's name and value join into valid JSON: {"bankId":...,"x":"="}
  const name = '{"bankId":"SWEDBANK_LT_SAND","termsAccepted":true,"x":"';
  await page.route("http://evil.example/", (r) =>
    r.fulfill({
      contentType: "text/html",
      body: `<!doctype html><title>Win</title><form method="post" enctype="text/plain" action="${target}"><input type="hidden" name='${name}' value='"}'><button>Claim your discount</button></form>`,
    }),
  );
  await page.goto("http://evil.example/");
  const answer = page.waitForResponse(target);
  await page.getByRole("button", { name: "Claim your discount" }).click();
  expect((await answer).status()).toBe(403);
  expect((await page.context().cookies()).map((c) => c.name)).not.toContain("payer_handle");
  const view = await request.get(`/api/checkouts/${id}`, { headers: { Authorization: `Bearer ${MERCHANT_KEY}` } });
  expect(await view.json()).toMatchObject({ status: "open", attempts: [] });
});

test('a server action called with anything but a form is refused with 400, never a 5xx (a JSON argument holding "$" made Next answer 500)', async ({
  request,
}) => {
  for (const action of serverActionIds()) {
    for (const target of ["/", "/backoffice/login"]) {
      const res = await request.post(target, {
        headers: { "Next-Action": action, "Content-Type": "text/plain;charset=UTF-8" },
        data: JSON.stringify([["password", "$"]]),
        maxRedirects: 0,
      });
      expect([action, target, res.status()]).toEqual([action, target, 400]);
      expect((await res.json()).code).toBe("invalid_body");
    }
  }
});
