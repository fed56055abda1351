import http from "node:http";
import { expect, test } from "@playwright/test";
import fc from "fast-check";
import { createCheckout, MERCHANT_KEY, serverActionIds } from "./journey";

/*
 * The pages and their server actions, fuzzed over HTTP against the running app (the route handlers
 * are fuzzed in app/api/fuzz.test.ts): random paths, queries, languages, cookies and action bodies.
 * Never a 5xx, never a stack trace. Sent from 127.0.0.2, so the rate limits it runs into (wrong
 * passwords, for one) are its own and not those of the other specs, which come from 127.0.0.1.
 */
const PAGE_RUNS = 800;
const ACTION_RUNS = 400;

function send(
  baseURL: string,
  method: string,
  target: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; body: string }> {
  const url = new URL(target, baseURL);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method,
        localAddress: "127.0.0.2",
        headers: {
          Host: url.host,
          ...headers,
          ...(body !== undefined && { "Content-Length": String(Buffer.byteLength(body)) }),
        },
      },
      (res) => {
        let text = "";
        res.on("data", (d: Buffer) => (text += d.toString()));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

const printable = fc.string({
  unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
  maxLength: 60,
});
const anyText = fc.oneof(
  printable,
  fc.string({ unit: "grapheme", maxLength: 20 }),
  fc.constantFrom("", "%", "%00", "../..", "<script>", "lt", "en", "paid", "2026-13-40", "1e309", "-1"),
);
const query = fc.dictionary(
  fc.constantFrom(
    "lang",
    "attempt",
    "status",
    "from",
    "to",
    "bank",
    "q",
    "page",
    "ended",
    "checkout",
    "statusGroup",
    "paymentId",
    "problem",
    "checked",
    "amount",
    "field",
    "format",
    "x",
  ),
  anyText,
  { maxKeys: 4 },
);
const headers = fc.record(
  {
    "Accept-Language": fc.oneof(printable, fc.constantFrom("lt", "lv-LV,lv;q=0.9", "et", "*", "zz")),
    Cookie: fc.oneof(
      printable,
      printable.map((v) => `bo_session=${v}`),
      printable.map((v) => `payer_handle=${v}`),
      printable.map((v) => `demo_shop_customer=${v}`),
    ),
    "X-Forwarded-For": printable,
    "User-Agent": printable,
  },
  { requiredKeys: [] },
);

test("pages and server actions: no input makes a 5xx", async ({ request, baseURL }) => {
  test.setTimeout(240_000);
  const known = await createCheckout(request, { reference: `fuzz-${Date.now()}` });
  const link = (await (
    await request.post("/api/payment-links", {
      headers: { Authorization: `Bearer ${MERCHANT_KEY}` },
      data: {
        title: "Fuzz",
        currency: "EUR",
        payerAmount: { min: "1", max: "9" },
        referencePrefix: "F",
        payerField: { label: "No" },
      },
    })
  ).json()) as { id: string; slug: string };
  const slug = fc.oneof(fc.constant(link.slug), anyText.map(encodeURIComponent), fc.constantFrom("AAAAAAAA", "%ZZ"));
  const id = fc.oneof(
    fc.constant(known),
    anyText.map(encodeURIComponent),
    // Not valid percent-encoding: Next itself answered these 500 (vercel/next.js#92527).
    fc.constantFrom("co_", "co_AAAAAAAAAAAAAAAAAAAAAAAA", "%2e%2e", "%ZZ", "%FF", "co_%"),
  );
  const page = fc.oneof(
    fc.constantFrom(
      "/",
      "/accessibility",
      "/backoffice",
      "/backoffice/login",
      "/backoffice/login/code",
      "/backoffice/staff",
      "/backoffice/activity",
      "/backoffice/security",
      "/backoffice/confirm",
      "/backoffice/api-keys",
      "/backoffice/payment-links",
    ),
    anyText.map((t) => `/backoffice/set-password/${encodeURIComponent(t)}`),
    id.map((i) => `/checkout/${i}`),
    id.map((i) => `/checkout/${i}/return`),
    id.map((i) => `/backoffice/checkouts/${i}`),
    slug.map((s) => `/pay/${s}`),
    fc.oneof(fc.constant(link.id), anyText.map(encodeURIComponent)).map((i) => `/backoffice/payment-links/${i}`),
    slug.map((s) => `/pay/${s}/qr`),
    anyText.map((t) => `/${encodeURIComponent(t)}`),
  );
  let requests = 0;
  const no5xx = (what: string, res: { status: number; body: string }) => {
    requests++;
    expect(res.status, `${what} answered ${res.status}: ${res.body.slice(0, 300)}`).toBeLessThan(500);
    expect(res.body).not.toMatch(/\n\s+at .+:\d+:\d+/);
  };

  await fc.assert(
    fc.asyncProperty(page, query, headers, async (p, q, h) => {
      const target = `${p}?${new URLSearchParams(q)}`;
      no5xx(`GET ${target}`, await send(baseURL!, "GET", target, h));
    }),
    { numRuns: PAGE_RUNS },
  );

  // The build's own server actions (and made-up ones), with random form and JSON bodies.
  const actionId = fc.oneof(fc.constantFrom(...serverActionIds()), fc.stringMatching(/^[0-9a-f]{42}$/), printable);
  const form = fc.dictionary(
    fc.constantFrom(
      "password",
      "email",
      "role",
      "staffId",
      "disabled",
      "token",
      "code",
      "secret",
      "next",
      "name",
      "scopes",
      "keyId",
      "overlap",
      "amount",
      "reason",
      "checkoutId",
      "attemptId",
      "refundKey",
      "productId",
      "quantity",
      "title",
      "amountKind",
      "min",
      "max",
      "referencePrefix",
      "endsAt",
      "maxPayments",
      "payerFieldLabel",
      "linkId",
      "1_$ACTION_ID_x",
      "0",
    ),
    anyText,
    { maxKeys: 6 },
  );
  await fc.assert(
    fc.asyncProperty(
      actionId,
      fc.constantFrom(
        "/backoffice/login",
        "/backoffice",
        `/backoffice/checkouts/${known}`,
        "/backoffice/staff",
        "/backoffice/security",
        "/backoffice/payment-links",
        "/",
      ),
      form,
      headers,
      fc.boolean(),
      async (action, target, fields, h, asJson) => {
        const body = asJson ? JSON.stringify(Object.entries(fields)) : new URLSearchParams(fields).toString();
        const contentType = asJson ? "text/plain;charset=UTF-8" : "application/x-www-form-urlencoded";
        no5xx(
          `action ${action} on ${target}`,
          await send(
            baseURL!,
            "POST",
            target,
            { ...h, "Next-Action": action, "Content-Type": contentType, Origin: new URL(baseURL!).origin },
            body,
          ),
        );
      },
    ),
    { numRuns: ACTION_RUNS },
  );
  console.log(`page fuzzing: ${requests} requests`);
  expect(requests).toBe(PAGE_RUNS + ACTION_RUNS);
});
