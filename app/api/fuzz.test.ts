import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { undocumentedCode } from "./documented-codes";
import { closeFreshApp, freshAppEnv, staffCookie } from "./test-env";
import { webhookSignature } from "@/lib/pis/webhook";

/**
 * Property-based fuzzing of every route handler: random bodies, queries, headers, cookies and path
 * params, mixed with near-valid ones, against the real handlers, database (PGlite) and sandbox
 * provider. The properties: never a 5xx, never a stack trace, at least 10,000 requests in all, and
 * afterwards nothing half-written in the database. (The pages and server actions are fuzzed over
 * HTTP against the running app: e2e/fuzz-pages.spec.ts.)
 */
const APP = "http://localhost:3000";
const KEY = "dev-merchant-key";
const RUNS = 700;
const WEBHOOK_RUNS = 1_200;
const MIN_REQUESTS = 10_000;

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

// Header values a real client could send (Headers refuses control characters and non-Latin-1).
const headerValue = fc.string({
  unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
  maxLength: 80,
});
const headerName = fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/);
const headers = fc
  .record(
    {
      extra: fc.dictionary(headerName, headerValue, { maxKeys: 4 }),
      authorization: fc.oneof(
        fc.constant(`Bearer ${KEY}`),
        fc.constant("Bearer "),
        headerValue.map((v) => `Bearer ${v}`),
        headerValue,
      ),
      contentType: fc.constantFrom(
        "application/json",
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        "",
      ),
      idempotencyKey: headerValue,
      forwardedFor: fc.oneof(fc.ipV4(), fc.ipV6(), headerValue),
      // A staff session (valid, made up or garbage) and other cookies.
      cookie: fc.oneof(
        fc.constant("STAFF"),
        headerValue.map((v) => `bo_session=${v}`),
        headerValue,
        fc.constant("bo_session="),
      ),
    },
    { requiredKeys: [] },
  )
  .map((h) => {
    const out: Record<string, string> = { ...h.extra };
    if (h.authorization !== undefined) out.authorization = h.authorization;
    if (h.contentType) out["content-type"] = h.contentType;
    if (h.idempotencyKey !== undefined) out["idempotency-key"] = h.idempotencyKey;
    if (h.forwardedFor !== undefined) out["x-forwarded-for"] = h.forwardedFor;
    if (h.cookie !== undefined) out.cookie = h.cookie;
    return out;
  });

const anyString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 20 }),
  fc.constantFrom(
    "",
    " ",
    "0",
    "-1",
    "1e309",
    "NaN",
    "__proto__",
    "constructor",
    "%00",
    "../../etc/passwd",
    "<script>",
    "12.50",
    "0.001",
    "EUR",
    "LT",
  ),
);
const anyScalar = fc.oneof(anyString, fc.integer(), fc.double(), fc.boolean(), fc.constant(null));
const checkoutBody = fc.record(
  {
    amount: fc.oneof(anyScalar, fc.constantFrom("12.50", "0.01", "99999999999.99", "1,00", "-5")),
    currency: fc.oneof(anyScalar, fc.constantFrom("EUR", "PLN", "eur", "XYZ")),
    description: anyScalar,
    reference: anyScalar,
    returnUrl: fc.oneof(
      anyScalar,
      fc.webUrl(),
      fc.constantFrom("javascript:alert(1)", "//evil.example", "https://shop.example/done"),
    ),
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
// The payment form as a browser posts it by itself (app/checkout/[checkoutId]/pay), form-encoded.
const payForm = fc.record(
  {
    choice: fc.oneof(fc.string({ maxLength: 10 }), fc.constantFrom("here", "hosted", "card", "hybrid", "saved")),
    country: fc.oneof(fc.string({ maxLength: 4 }), fc.constantFrom("LT", "EE")),
    bankId: fc.oneof(fc.string({ maxLength: 80 }), fc.constantFrom("SEB_LT_SAND", "NOPE_BANK")),
    terms: fc.oneof(fc.string({ maxLength: 5 }), fc.constant("on")),
    remember: fc.oneof(fc.string({ maxLength: 5 }), fc.constant("on")),
    attemptKey: fc.oneof(fc.string({ maxLength: 80 }), fc.stringMatching(/^[A-Za-z0-9_-]{8,64}$/)),
    lang: fc.oneof(fc.string({ maxLength: 4 }), fc.constantFrom("en", "lt")),
  },
  { requiredKeys: [] },
);
const refundBody = fc.record(
  { amount: fc.oneof(anyScalar, fc.constantFrom("1.00", "0.00", "1000000")), reason: anyScalar },
  { requiredKeys: [] },
);
const linkBody = fc.record(
  {
    title: anyScalar,
    description: anyScalar,
    currency: fc.oneof(anyScalar, fc.constantFrom("EUR", "PLN")),
    amount: fc.oneof(anyScalar, fc.constantFrom("12.50", "0", "1.001")),
    payerAmount: fc.oneof(
      fc.jsonValue(),
      fc.record({ min: anyScalar, max: anyScalar, suggested: anyScalar }, { requiredKeys: [] }),
      fc.constant({ min: "5.00", max: "1.00" }),
    ),
    referencePrefix: fc.oneof(anyScalar, fc.constantFrom("INV", "has space", "")),
    payerField: fc.oneof(fc.jsonValue(), fc.record({ label: anyScalar, required: anyScalar }, { requiredKeys: [] })),
    endsAt: fc.oneof(anyScalar, fc.constantFrom("2001-01-01T00:00:00Z", "2099-01-01T00:00:00Z")),
    maxPayments: fc.oneof(anyScalar, fc.integer({ min: -2, max: 3 })),
    returnUrl: fc.oneof(anyScalar, fc.webUrl()),
  },
  { requiredKeys: [] },
);
// A payment link's form as a browser posts it (app/pay/[slug]/start), form-encoded.
const linkForm = fc.record(
  {
    amount: fc.oneof(fc.string({ maxLength: 50 }), fc.constantFrom("12,50", "5", "0", "1e3", "499.999")),
    field: fc.oneof(fc.string({ maxLength: 500 }), fc.constant("INV-1")),
    lang: fc.oneof(fc.string({ maxLength: 4 }), fc.constantFrom("en", "lt")),
  },
  { requiredKeys: [] },
);
const rawBody = (shaped: fc.Arbitrary<unknown>, encode: (v: unknown) => string = (v) => JSON.stringify(v)) =>
  fc.oneof(
    { weight: 3, arbitrary: shaped.map(encode) },
    { weight: 1, arbitrary: fc.jsonValue().map((v) => JSON.stringify(v)) },
    { weight: 1, arbitrary: fc.string({ maxLength: 200 }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        "",
        "{",
        "[]",
        "null",
        '{"__proto__":{"x":1}}',
        "x".repeat(70_000),
        '{"a":' + "[".repeat(5000),
      ),
    },
  );
const query = fc.dictionary(fc.string({ maxLength: 12 }), fc.string({ maxLength: 30 }), { maxKeys: 4 });

describe("route fuzzing: no input makes a 5xx", () => {
  let known = "";
  let knownLink = { id: "", slug: "" };
  let staff = "";
  let requests = 0;
  const undocumentedCodes = new Set<string>();
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
    const ready = await import("@/app/api/health/ready/route");
    const metrics = await import("@/app/api/metrics/route");
    const savedAccount = await import("@/app/api/checkouts/[checkoutId]/saved-account/route");
    const linkReturn = await import("@/app/checkout/[checkoutId]/saved-account/route");
    const payPost = await import("@/app/checkout/[checkoutId]/pay/route");
    const forgetPost = await import("@/app/checkout/[checkoutId]/saved-account/forget/route");
    const abandonPost = await import("@/app/checkout/[checkoutId]/abandon/route");
    const staffList = await import("@/app/api/backoffice/checkouts/route");
    const staffDetail = await import("@/app/api/backoffice/checkouts/[checkoutId]/route");
    const activity = await import("@/app/api/backoffice/activity/route");
    const testComplete = await import("@/app/api/test-helpers/checkouts/[checkoutId]/complete/route");
    const links = await import("@/app/api/payment-links/route");
    const link = await import("@/app/api/payment-links/[linkId]/route");
    const deactivate = await import("@/app/api/payment-links/[linkId]/deactivate/route");
    const payLink = await import("@/app/pay/[slug]/start/route");
    const linkQr = await import("@/app/pay/[slug]/qr/route");
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
      "GET /api/health/ready": ready.GET,
      "GET /api/metrics": metrics.GET,
      "POST /api/checkouts/{id}/saved-account": savedAccount.POST,
      "DELETE /api/checkouts/{id}/saved-account": savedAccount.DELETE,
      "GET /checkout/{id}/saved-account": linkReturn.GET,
      "POST /checkout/{id}/pay": payPost.POST,
      "POST /checkout/{id}/saved-account/forget": forgetPost.POST,
      "POST /checkout/{id}/abandon": abandonPost.POST,
      "GET /api/backoffice/checkouts": staffList.GET,
      "GET /api/backoffice/checkouts/{id}": staffDetail.GET,
      "GET /api/backoffice/activity": activity.GET,
      "POST /api/test-helpers/checkouts/{id}/complete": testComplete.POST,
      "POST /api/payment-links": links.POST,
      "GET /api/payment-links": links.GET,
      "GET /api/payment-links/{id}": link.GET,
      "POST /api/payment-links/{id}/deactivate": deactivate.POST,
      "POST /pay/{id}/start": payLink.POST,
      "GET /pay/{id}/qr": linkQr.GET,
    } as Record<string, Handler>;
    staff = await staffCookie();
    const created = await checkouts.POST(
      new Request(`${APP}/api/checkouts`, {
        method: "POST",
        headers: { Authorization: `Bearer ${KEY}`, "Content-Type": "application/json" },
        body: JSON.stringify({
          amount: "12.50",
          currency: "EUR",
          description: "Fuzz",
          reference: "fuzz-1",
          returnUrl: "https://shop.example/done",
        }),
      }),
      { params: Promise.resolve({}) },
    );
    known = ((await created.json()) as { id: string }).id;
    const madeLink = await links.POST(
      new Request(`${APP}/api/payment-links`, {
        method: "POST",
        headers: { Authorization: `Bearer ${KEY}`, "Content-Type": "application/json" },
        body: JSON.stringify({
          title: "Fuzz",
          currency: "EUR",
          payerAmount: { min: "1.00", max: "500.00" },
          referencePrefix: "FUZZ",
          payerField: { label: "Invoice" },
          maxPayments: 3,
        }),
      }),
      { params: Promise.resolve({}) },
    );
    knownLink = (await madeLink.json()) as typeof knownLink;
  });
  afterAll(closeFreshApp);

  const checkoutId = () =>
    fc.oneof(
      fc.constant(known),
      fc.constantFrom(knownLink.id, knownLink.slug),
      fc.string({ maxLength: 80 }),
      fc.constantFrom("", "co_", "co_AAAAAAAAAAAAAAAAAAAAAAAA", "../", "%2e%2e"),
    );

  /** One request as a client sends it; "STAFF" in the Cookie header stands for a signed-in staff member. */
  async function send(name: string, req: Request, params: Record<string, string>): Promise<Response> {
    requests++;
    if (req.headers.get("cookie") === "STAFF") req.headers.set("cookie", staff);
    const res = await handlers[name]!(req, { params: Promise.resolve(params) });
    const [method, template] = name.split(" ") as [string, string];
    const undocumented = await undocumentedCode(method, template, res);
    if (undocumented) undocumentedCodes.add(undocumented);
    return res;
  }

  async function expectNo5xx(name: string, res: Response) {
    const text = await res.text();
    expect(res.status, `${name} answered ${res.status}: ${text.slice(0, 300)}`).toBeLessThan(500);
    expect(text).not.toMatch(/\n\s+at .+:\d+:\d+/); // no stack trace
  }

  const formEncoded = (v: unknown) => new URLSearchParams(v as Record<string, string>).toString();
  const cases: [string, string, fc.Arbitrary<unknown> | undefined, boolean, ((v: unknown) => string)?][] = [
    ["POST /api/checkouts", "POST", checkoutBody, false],
    ["GET /api/checkouts/{id}", "GET", undefined, true],
    ["POST /api/checkouts/{id}/payments", "POST", paymentBody, true],
    ["POST /api/checkouts/{id}/payments/abandon", "POST", fc.jsonValue(), true],
    ["GET /api/checkouts/{id}/status", "GET", undefined, true],
    ["POST /api/checkouts/{id}/refunds", "POST", refundBody, true],
    ["GET /api/checkouts/{id}/refunds", "GET", undefined, true],
    ["GET /api/banks", "GET", undefined, false],
    ["GET /api/health", "GET", undefined, false],
    ["GET /api/health/ready", "GET", undefined, false],
    ["GET /api/metrics", "GET", undefined, false],
    ["POST /api/checkouts/{id}/saved-account", "POST", paymentBody, true],
    ["DELETE /api/checkouts/{id}/saved-account", "DELETE", undefined, true],
    ["GET /checkout/{id}/saved-account", "GET", undefined, true],
    ["POST /checkout/{id}/pay", "POST", payForm, true, formEncoded],
    ["POST /checkout/{id}/saved-account/forget", "POST", payForm, true, formEncoded],
    ["POST /checkout/{id}/abandon", "POST", payForm, true, formEncoded],
    ["GET /api/backoffice/checkouts", "GET", undefined, false],
    ["GET /api/backoffice/checkouts/{id}", "GET", undefined, true],
    ["GET /api/backoffice/activity", "GET", undefined, false],
    ["POST /api/payment-links", "POST", linkBody, false],
    ["GET /api/payment-links", "GET", undefined, false],
    ["GET /api/payment-links/{id}", "GET", undefined, true],
    // Before deactivation fuzzing ends the known link.
    ["POST /pay/{id}/start", "POST", linkForm, true, formEncoded],
    ["GET /pay/{id}/qr", "GET", undefined, true],
    ["POST /api/payment-links/{id}/deactivate", "POST", undefined, true],
  ];

  for (const [name, method, body, withId, encode] of cases) {
    it(`${name}: body, query, headers and id`, { timeout: 60_000 }, async () => {
      await fc.assert(
        fc.asyncProperty(
          body ? rawBody(body, encode) : fc.constant(undefined),
          query,
          headers,
          withId ? checkoutId() : fc.constant(""),
          async (b, q, h, id) => {
            const path = name.replace("{id}", encodeURIComponent(id)).replace(/^\w+ /, "");
            const url = `${APP}${path}?${new URLSearchParams(q)}`;
            const res = await send(
              name,
              new Request(url, { method, headers: h, body: method === "GET" || method === "DELETE" ? undefined : b }),
              withId ? { checkoutId: id, linkId: id, slug: id } : {},
            );
            await expectNo5xx(name, res);
          },
        ),
        { numRuns: RUNS },
      );
    });
  }

  it(
    "POST /api/webhooks/pis: unsigned, mis-signed and correctly signed random bodies",
    { timeout: 60_000 },
    async () => {
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
        fc.asyncProperty(
          rawBody(event),
          headers,
          fc.constantFrom("none", "wrong", "signed", "stale"),
          async (b, h, signing) => {
            const body = b ?? "";
            const timestamp = String(signing === "stale" ? Date.now() - 3_600_000 : Date.now());
            const all: Record<string, string> = { ...h };
            if (signing !== "none") {
              all["x-kevin-timestamp"] = timestamp;
              all["x-kevin-signature"] =
                signing === "wrong"
                  ? "0".repeat(64)
                  : webhookSignature("sandbox-webhook-secret", `${APP}/api/webhooks/pis`, timestamp, body);
            }
            const res = await send(
              "POST /api/webhooks/pis",
              new Request(`${APP}/api/webhooks/pis`, { method: "POST", headers: all, body }),
              {},
            );
            await expectNo5xx("webhooks", res);
          },
        ),
        { numRuns: WEBHOOK_RUNS },
      );
    },
  );

  it('answered no refusal the OpenAPI document does not list for its route (README "Error codes")', () => {
    expect([...undocumentedCodes].sort()).toEqual([]);
  });

  it(`sent at least ${MIN_REQUESTS} requests over every route`, () => {
    console.log(`route fuzzing: ${requests} requests over ${Object.keys(handlers).length} routes`);
    expect(requests).toBeGreaterThanOrEqual(MIN_REQUESTS);
  });

  it("left nothing half-written: every row whole and consistent with the others", async () => {
    const { db } = await (await import("@/lib/checkout/app-context")).appContext();
    const { rowsOf } = await import("@/lib/db/raw");
    const count = async (query: string) => Number(rowsOf<{ n: number | string }>(await db.execute(query))[0]!.n);
    // A paid checkout has the completed payment that paid it; a failed or open one has none.
    expect(
      await count(
        `select count(*) as n from checkouts c where c.status = 'paid' and not exists (select 1 from payment_attempts a where a.checkout_id = c.id and a.status_group = 'completed')`,
      ),
    ).toBe(0);
    // Every attempt that reached the provider names its payment; none is left claiming a start in flight.
    expect(
      await count(
        `select count(*) as n from payment_attempts a join checkouts c on c.id = a.checkout_id where a.status_group is not null and a.status_group <> 'failed' and a.provider_payment_id is null`,
      ),
    ).toBe(0);
    // Refunds never exceed what was paid.
    expect(
      await count(
        `select count(*) as n from checkouts c where (select coalesce(sum(r.amount), 0) from refunds r where r.checkout_id = c.id and r.status_group is distinct from 'failed') > c.amount`,
      ),
    ).toBe(0);
    // Only webhooks signed with our secret are stored.
    expect(await count(`select count(*) as n from webhook_events where signature_valid = false`)).toBe(0);
    // Every status change belongs to a checkout that is in the state its last change says.
    expect(
      await count(
        `select count(*) as n from checkouts c where c.status <> 'open' and c.status <> (select e.to_status from status_events e where e.checkout_id = c.id order by e.id desc limit 1)`,
      ),
    ).toBe(0);
  });

  it("logged no unexpected error while fuzzing", () => {
    const unexpected = errors.mock.calls.filter((c) => String(c[0]).includes("failed"));
    expect(unexpected).toEqual([]);
  });
});
