import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { freshAppEnv } from "./test-env";
import { webhookSignature } from "@/lib/pis/webhook";

/**
 * Property-based fuzzing of every route handler: random bodies, queries, headers and path params,
 * mixed with near-valid ones, against the real handlers, database (PGlite) and sandbox provider.
 * The property: never a 5xx, never a stack trace. A few hundred runs per route, time-boxed.
 */
const APP = "http://localhost:3000";
const KEY = "dev-merchant-key";
const RUNS = 200;
const TIME_LIMIT_MS = 8_000;

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

// Header values a real client could send (Headers refuses control characters and non-Latin-1).
const headerValue = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 80 });
const headerName = fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/);
const headers = fc.record(
  {
    extra: fc.dictionary(headerName, headerValue, { maxKeys: 4 }),
    authorization: fc.oneof(fc.constant(`Bearer ${KEY}`), fc.constant("Bearer "), headerValue.map((v) => `Bearer ${v}`), headerValue),
    contentType: fc.constantFrom("application/json", "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", ""),
    idempotencyKey: headerValue,
    forwardedFor: fc.oneof(fc.ipV4(), fc.ipV6(), headerValue),
  },
  { requiredKeys: [] },
).map((h) => {
  const out: Record<string, string> = { ...h.extra };
  if (h.authorization !== undefined) out.authorization = h.authorization;
  if (h.contentType) out["content-type"] = h.contentType;
  if (h.idempotencyKey !== undefined) out["idempotency-key"] = h.idempotencyKey;
  if (h.forwardedFor !== undefined) out["x-forwarded-for"] = h.forwardedFor;
  return out;
});

const anyString = fc.oneof(fc.string({ maxLength: 40 }), fc.string({ unit: "grapheme", maxLength: 20 }), fc.constantFrom("", " ", "0", "-1", "1e309", "NaN", "__proto__", "constructor", "%00", "../../etc/passwd", "<script>", "12.50", "0.001", "EUR", "LT"));
const anyScalar = fc.oneof(anyString, fc.integer(), fc.double(), fc.boolean(), fc.constant(null));
const checkoutBody = fc.record(
  {
    amount: fc.oneof(anyScalar, fc.constantFrom("12.50", "0.01", "99999999999.99", "1,00", "-5")),
    currency: fc.oneof(anyScalar, fc.constantFrom("EUR", "PLN", "eur", "XYZ")),
    description: anyScalar,
    reference: anyScalar,
    returnUrl: fc.oneof(anyScalar, fc.webUrl(), fc.constantFrom("javascript:alert(1)", "//evil.example", "https://shop.example/done")),
    notifyUrl: fc.oneof(anyScalar, fc.webUrl()),
    locale: fc.oneof(anyScalar, fc.constantFrom("en", "lt", "xx")),
    country: fc.oneof(anyScalar, fc.constantFrom("LT", "lv", "ZZ")),
    email: fc.oneof(anyScalar, fc.emailAddress()),
    amountOverride: anyScalar,
  },
  { requiredKeys: [] },
);
const paymentBody = fc.record(
  {
    method: fc.oneof(anyScalar, fc.constantFrom("bank", "card", "hybrid")),
    bankId: fc.oneof(anyScalar, fc.constantFrom("SEB_LT_SAND", "SWEDBANK_LT_SAND", "NOPE_BANK")),
    country: fc.oneof(anyScalar, fc.constantFrom("LT", "EE")),
    termsAccepted: fc.oneof(fc.boolean(), anyScalar),
    attemptKey: fc.oneof(anyScalar, fc.stringMatching(/^[A-Za-z0-9_-]{8,64}$/)),
    lang: fc.oneof(anyScalar, fc.constantFrom("en", "lt")),
    amount: anyScalar,
    creditorAccount: fc.jsonValue(),
    savedAccount: fc.oneof(anyScalar, fc.constant(true)),
  },
  { requiredKeys: [] },
);
const refundBody = fc.record({ amount: fc.oneof(anyScalar, fc.constantFrom("1.00", "0.00", "1000000")), reason: anyScalar }, { requiredKeys: [] });
const rawBody = (shaped: fc.Arbitrary<unknown>) =>
  fc.oneof(
    { weight: 3, arbitrary: shaped.map((v) => JSON.stringify(v)) },
    { weight: 1, arbitrary: fc.jsonValue().map((v) => JSON.stringify(v)) },
    { weight: 1, arbitrary: fc.string({ maxLength: 200 }) },
    { weight: 1, arbitrary: fc.constantFrom("", "{", "[]", "null", '{"__proto__":{"x":1}}', "x".repeat(70_000), '{"a":' + "[".repeat(5000)) },
  );
const query = fc.dictionary(fc.string({ maxLength: 12 }), fc.string({ maxLength: 30 }), { maxKeys: 4 });

describe("route fuzzing: no input makes a 5xx", () => {
  let known = "";
  let handlers: Record<string, Handler>;
  const errors = vi.spyOn(console, "error");

  beforeAll(async () => {
    freshAppEnv();
    const checkouts = await import("@/app/api/checkouts/route");
    const checkout = await import("@/app/api/checkouts/[checkoutId]/route");
    const payments = await import("@/app/api/checkouts/[checkoutId]/payments/route");
    const abandon = await import("@/app/api/checkouts/[checkoutId]/payments/abandon/route");
    const status = await import("@/app/api/checkouts/[checkoutId]/status/route");
    const refunds = await import("@/app/api/checkouts/[checkoutId]/refunds/route");
    const banks = await import("@/app/api/banks/route");
    const webhooks = await import("@/app/api/webhooks/pis/route");
    const health = await import("@/app/api/health/route");
    const savedAccount = await import("@/app/api/checkouts/[checkoutId]/saved-account/route");
    const linkReturn = await import("@/app/checkout/[checkoutId]/saved-account/route");
    handlers = {
      "POST /api/checkouts": checkouts.POST,
      "GET /api/checkouts/{id}": checkout.GET,
      "POST /api/checkouts/{id}/payments": payments.POST,
      "POST /api/checkouts/{id}/payments/abandon": abandon.POST,
      "GET /api/checkouts/{id}/status": status.GET,
      "POST /api/checkouts/{id}/refunds": refunds.POST,
      "GET /api/checkouts/{id}/refunds": refunds.GET,
      "GET /api/banks": banks.GET,
      "POST /api/webhooks/pis": webhooks.POST,
      "GET /api/health": health.GET,
      "POST /api/checkouts/{id}/saved-account": savedAccount.POST,
      "DELETE /api/checkouts/{id}/saved-account": savedAccount.DELETE,
      "GET /checkout/{id}/saved-account": linkReturn.GET,
    } as Record<string, Handler>;
    await (await import("@/lib/checkout/app-context")).appContext();
    const created = await checkouts.POST(
      new Request(`${APP}/api/checkouts`, {
        method: "POST",
        headers: { Authorization: `Bearer ${KEY}`, "Content-Type": "application/json" },
        body: JSON.stringify({ amount: "12.50", currency: "EUR", description: "Fuzz", reference: "fuzz-1", returnUrl: "https://shop.example/done" }),
      }),
      { params: Promise.resolve({}) },
    );
    known = ((await created.json()) as { id: string }).id;
  });
  afterAll(async () => {
    vi.unstubAllEnvs();
    const holder = globalThis as { __checkoutDb?: Promise<{ close(): Promise<void> }> };
    await (await holder.__checkoutDb)?.close();
    delete holder.__checkoutDb;
  });

  const checkoutId = () => fc.oneof(fc.constant(known), fc.string({ maxLength: 80 }), fc.constantFrom("", "co_", "co_AAAAAAAAAAAAAAAAAAAAAAAA", "../", "%2e%2e"));

  async function expectNo5xx(name: string, res: Response) {
    const text = await res.text();
    expect(res.status, `${name} answered ${res.status}: ${text.slice(0, 300)}`).toBeLessThan(500);
    expect(text).not.toMatch(/\n\s+at .+:\d+:\d+/); // no stack trace
  }

  const cases: [string, string, fc.Arbitrary<unknown> | undefined, boolean][] = [
    ["POST /api/checkouts", "POST", checkoutBody, false],
    ["GET /api/checkouts/{id}", "GET", undefined, true],
    ["POST /api/checkouts/{id}/payments", "POST", paymentBody, true],
    ["POST /api/checkouts/{id}/payments/abandon", "POST", fc.jsonValue(), true],
    ["GET /api/checkouts/{id}/status", "GET", undefined, true],
    ["POST /api/checkouts/{id}/refunds", "POST", refundBody, true],
    ["GET /api/checkouts/{id}/refunds", "GET", undefined, true],
    ["GET /api/banks", "GET", undefined, false],
    ["GET /api/health", "GET", undefined, false],
    ["POST /api/checkouts/{id}/saved-account", "POST", paymentBody, true],
    ["DELETE /api/checkouts/{id}/saved-account", "DELETE", undefined, true],
    ["GET /checkout/{id}/saved-account", "GET", undefined, true],
  ];

  for (const [name, method, body, withId] of cases) {
    it(`${name}: body, query, headers and id`, { timeout: 60_000 }, async () => {
      await fc.assert(
        fc.asyncProperty(body ? rawBody(body) : fc.constant(undefined), query, headers, withId ? checkoutId() : fc.constant(""), async (b, q, h, id) => {
          const path = name.replace("{id}", encodeURIComponent(id)).replace(/^\w+ /, "");
          const url = `${APP}${path}?${new URLSearchParams(q)}`;
          const res = await handlers[name]!(new Request(url, { method, headers: h, body: method === "GET" || method === "DELETE" ? undefined : b }), { params: Promise.resolve<Record<string, string>>(withId ? { checkoutId: id } : {}) });
          await expectNo5xx(name, res);
        }),
        { numRuns: RUNS, interruptAfterTimeLimit: TIME_LIMIT_MS },
      );
    });
  }

  it("POST /api/webhooks/pis: unsigned, mis-signed and correctly signed random bodies", { timeout: 60_000 }, async () => {
    const event = fc.record(
      {
        id: fc.oneof(anyScalar, fc.stringMatching(/^[0-9a-f]{40}$/)),
        paymentId: anyScalar,
        bankStatus: fc.oneof(anyScalar, fc.constantFrom("ACSC", "RJCT", "CANC")),
        statusGroup: fc.oneof(anyScalar, fc.constantFrom("completed", "failed", "pending", "started")),
        type: fc.oneof(anyScalar, fc.constantFrom("PAYMENT", "PAYMENT_REFUND")),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(rawBody(event), headers, fc.constantFrom("none", "wrong", "signed", "stale"), async (b, h, signing) => {
        const body = b ?? "";
        const timestamp = String(signing === "stale" ? Date.now() - 3_600_000 : Date.now());
        const all: Record<string, string> = { ...h };
        if (signing !== "none") {
          all["x-kevin-timestamp"] = timestamp;
          all["x-kevin-signature"] = signing === "wrong" ? "0".repeat(64) : webhookSignature("sandbox-webhook-secret", `${APP}/api/webhooks/pis`, timestamp, body);
        }
        const res = await handlers["POST /api/webhooks/pis"]!(new Request(`${APP}/api/webhooks/pis`, { method: "POST", headers: all, body }), { params: Promise.resolve({}) });
        await expectNo5xx("webhooks", res);
      }),
      { numRuns: RUNS * 2, interruptAfterTimeLimit: TIME_LIMIT_MS },
    );
  });

  it("logged no unexpected error while fuzzing", () => {
    const unexpected = errors.mock.calls.filter((c) => String(c[0]).includes("failed"));
    expect(unexpected).toEqual([]);
  });
});
