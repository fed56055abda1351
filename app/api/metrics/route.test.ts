import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { testDbKinds } from "@/lib/db/testing";
import { LABEL_VALUES } from "@/lib/metrics/registry";
import { freshAppFor } from "../test-env";

/**
 * GET /api/metrics as Prometheus and an operator reach it: the real handlers, database (PGlite and
 * Postgres) and sandbox provider, a checkout created and paid through them before the scrape.
 */
const KEY = "dev-merchant-key";
const TOKEN = "metrics-token-for-the-tests-0123";
const APP = "http://localhost:3000";
const none = { params: Promise.resolve({}) };
const withId = (checkoutId: string) => ({ params: Promise.resolve({ checkoutId }) });
const post = (p: string, body: unknown, headers: Record<string, string> = {}) =>
  new Request(`${APP}${p}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${KEY}`, ...headers },
    body: JSON.stringify(body),
  });
const scrapeRequest = (headers: Record<string, string> = {}) => new Request(`${APP}/api/metrics`, { headers });

/** Every sample of an exposition: metric name, labels, value. */
function samples(text: string) {
  return text
    .split("\n")
    .filter((line) => line && !line.startsWith("#"))
    .map((line) => {
      const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!m) throw new Error(`not a sample line: ${line}`);
      const labels = Object.fromEntries(
        [...(m[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], l[2]]),
      );
      return { name: m[1]!, labels: labels as Record<string, string>, value: Number(m[3]) };
    });
}

/** The templates of every route file (app/.../route.ts), as lib/http/route.ts writes them. */
function routeTemplates(): Set<string> {
  const root = path.resolve(__dirname, "../..");
  const files = readdirSync(root, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith("route.ts"));
  return new Set(
    files.map((f) =>
      `/${path.dirname(f)}`
        .split("/")
        .filter((s) => !/^\(.*\)$/.test(s))
        .map((s) => (s.startsWith("[...") ? "{...path}" : s.startsWith("[") ? "{id}" : s))
        .join("/"),
    ),
  );
}

/** The provider operations lib/pis names (its operation ids: string literals of its source). */
function providerOperations(): Set<string> {
  const dir = path.resolve(__dirname, "../../../lib/pis");
  const ops = readdirSync(dir)
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))
    .flatMap((f) => [...readFileSync(path.join(dir, f), "utf8").matchAll(/operation: "(\w+)"/g)].map((m) => m[1]!));
  return new Set(ops);
}

describe.each(testDbKinds())("GET /api/metrics (%s)", (kind) => {
  freshAppFor(kind);
  let routes: {
    metrics: typeof import("@/app/api/metrics/route");
    checkouts: typeof import("@/app/api/checkouts/route");
    payments: typeof import("@/app/api/checkouts/[checkoutId]/payments/route");
    complete: typeof import("@/app/api/test-helpers/checkouts/[checkoutId]/complete/route");
    status: typeof import("@/app/api/checkouts/[checkoutId]/status/route");
    unknown: typeof import("@/app/api/[...unknown]/route");
    qr: typeof import("@/app/pay/[slug]/qr/route");
  };
  let checkoutId = "";

  beforeAll(async () => {
    vi.stubEnv("METRICS_TOKEN", TOKEN);
    routes = {
      metrics: await import("@/app/api/metrics/route"),
      checkouts: await import("@/app/api/checkouts/route"),
      payments: await import("@/app/api/checkouts/[checkoutId]/payments/route"),
      complete: await import("@/app/api/test-helpers/checkouts/[checkoutId]/complete/route"),
      status: await import("@/app/api/checkouts/[checkoutId]/status/route"),
      unknown: await import("@/app/api/[...unknown]/route"),
      qr: await import("@/app/pay/[slug]/qr/route"),
    };
    // A checkout made and paid at the sandbox bank, its merchant not answering its notification.
    const created = await routes.checkouts.POST(
      post("/api/checkouts", {
        amount: "12.50",
        currency: "EUR",
        description: "Metrics",
        reference: "metrics-1",
        returnUrl: "https://shop.example/done",
        notifyUrl: "http://127.0.0.1:9/hook",
      }),
      none,
    );
    checkoutId = ((await created.json()) as { id: string }).id;
    const started = await routes.payments.POST(
      post(`/api/checkouts/${checkoutId}/payments`, {
        method: "bank",
        bankId: "SEB_LT_SAND",
        termsAccepted: true,
        attemptKey: "metrics-attempt-1",
      }),
      withId(checkoutId),
    );
    expect(started.status).toBe(200);
    const paid = await routes.complete.POST(
      post(`/api/test-helpers/checkouts/${checkoutId}/complete`, { outcome: "paid" }),
      withId(checkoutId),
    );
    expect(paid.status).toBe(200);
    const status = await routes.status.GET(
      new Request(`${APP}/api/checkouts/${checkoutId}/status`),
      withId(checkoutId),
    );
    expect((await status.json()).status).toBe("paid");
    const { deliverDueNotifications } = await import("@/lib/checkout/outbox");
    const { appContext } = await import("@/lib/checkout/app-context");
    await deliverDueNotifications(await appContext(), { timeoutMs: 2000 });
    // A second checkout whose payer went to the bank 31 minutes ago and never came back.
    const left = await routes.checkouts.POST(
      post("/api/checkouts", {
        amount: "3.00",
        currency: "EUR",
        description: "Left at the bank",
        reference: "metrics-2",
        returnUrl: "https://shop.example/done",
      }),
      none,
    );
    const leftId = ((await left.json()) as { id: string }).id;
    const leftStart = await routes.payments.POST(
      post(`/api/checkouts/${leftId}/payments`, {
        method: "bank",
        bankId: "SEB_LT_SAND",
        termsAccepted: true,
        attemptKey: "metrics-attempt-2",
      }),
      withId(leftId),
    );
    expect(leftStart.status).toBe(200);
    const { db } = await appContext();
    await db.execute(
      sql`update payment_attempts set created_at = now() - interval '31 minutes' where checkout_id = ${leftId}`,
    );
    // Addresses nobody has: a made-up path, a payment link's slug.
    await routes.unknown.GET(new Request(`${APP}/api/no/such/co_${"x".repeat(24)}`), {
      params: Promise.resolve({ unknown: ["no", "such", `co_${"x".repeat(24)}`] }),
    });
    await routes.qr.GET(new Request(`${APP}/pay/made-up-slug/qr`), {
      params: Promise.resolve({ slug: "made-up-slug" }),
    });
  });

  const scrape = async () => {
    const res = await routes.metrics.GET(scrapeRequest({ Authorization: `Bearer ${TOKEN}` }), none);
    expect(res.status).toBe(200);
    return res.text();
  };

  it("refuses a scrape without the token, or with a wrong one: 401 problem+json, never cached", async () => {
    const tries: Record<string, string>[] = [
      {},
      { Authorization: "Bearer wrong-token-wrong-token" },
      { Authorization: TOKEN },
    ];
    for (const headers of tries) {
      const res = await routes.metrics.GET(scrapeRequest(headers), none);
      expect(res.status).toBe(401);
      expect(res.headers.get("content-type")).toBe("application/problem+json");
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
      expect((await res.json()).code).toBe("unauthorized");
    }
  });

  it("answers the token's bearer with the Prometheus text format, never cached", async () => {
    const res = await routes.metrics.GET(scrapeRequest({ Authorization: `Bearer ${TOKEN}` }), none);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await res.text()).toContain("# TYPE checkout_http_request_duration_seconds histogram");
  });

  it("lets this machine read them without the token, but not a proxy on it passing on someone else", async () => {
    for (const peer of ["127.0.0.1", "::1", "::ffff:127.0.0.1"]) {
      const res = await routes.metrics.GET(scrapeRequest({ "x-checkout-peer": peer }), none);
      expect(res.status, peer).toBe(200);
      expect(res.headers.get("cache-control")).toBe("no-store");
    }
    const viaProxy = scrapeRequest({ "x-checkout-peer": "127.0.0.1", "x-forwarded-for": "203.0.113.9" });
    expect((await routes.metrics.GET(viaProxy, none)).status).toBe(401);
    const outside = scrapeRequest({ "x-checkout-peer": "203.0.113.9" });
    expect((await routes.metrics.GET(outside, none)).status).toBe(401);
  });

  it("names every metric the README lists once a checkout was created and paid", async () => {
    const text = await scrape();
    for (const name of [
      "checkout_http_request_duration_seconds",
      "checkout_provider_request_duration_seconds",
      "checkout_created_total",
      "checkout_ended_total",
      "checkout_notification_deliveries_total",
      "checkout_outbox_notifications",
      "checkout_outbox_oldest_pending_age_seconds",
      "checkout_worker_round_duration_seconds",
      "checkout_db_pool_connections",
      "checkout_db_pool_waiting",
      "checkout_db_pool_max",
      "checkout_payments_in_flight",
      "checkout_payments_in_flight_over_30m",
      "nodejs_eventloop_lag_p99_seconds",
      "nodejs_heap_size_used_bytes",
      "nodejs_gc_duration_seconds",
      "process_resident_memory_bytes",
    ])
      expect(text, name).toContain(`# TYPE ${name} `);
    const all = samples(text);
    const value = (name: string, labels: Record<string, string>) =>
      all.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;
    expect(value("checkout_created_total", { origin: "api" })).toBeGreaterThanOrEqual(1);
    // By the bank the payer chose, the provider having listed it.
    expect(
      value("checkout_ended_total", { status: "paid", method: "bank", bank: "SEB_LT_SAND" }),
    ).toBeGreaterThanOrEqual(1);
    // The payment left at the bank 31 minutes ago, read from the database at the scrape.
    expect(value("checkout_payments_in_flight", { group: "started" })).toBe(1);
    expect(value("checkout_payments_in_flight_over_30m", { group: "started" })).toBe(1);
    expect(value("checkout_payments_in_flight_over_30m", { group: "pending" })).toBe(0);
    expect(value("checkout_notification_deliveries_total", { result: "failed" })).toBeGreaterThanOrEqual(1);
    // The notification that failed waits for its retry: read from the database at the scrape.
    expect(value("checkout_outbox_notifications", { state: "retrying" })).toBeGreaterThanOrEqual(1);
    expect(value("checkout_outbox_oldest_pending_age_seconds", {})).toBeGreaterThan(0);
    expect(
      value("checkout_provider_request_duration_seconds_count", { operation: "initiatePayment", outcome: "ok" }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      value("checkout_http_request_duration_seconds_count", {
        method: "POST",
        route: "/api/checkouts/{id}/payments",
        status: "200",
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(value("checkout_db_pool_max", {})).toBeGreaterThan(0);
  });

  it("keeps every label to a known, finite set: route templates, never an id, a slug or a made-up path", async () => {
    const text = await scrape();
    expect(text).not.toContain(checkoutId);
    expect(text).not.toMatch(/co_x|made-up-slug|no\/such/);
    const templates = routeTemplates();
    const { pis } = await (await import("@/lib/checkout/app-context")).appContext();
    const listed = await Promise.all(["LT", "LV", "EE"].map((countryCode) => pis.banks.list({ countryCode })));
    const sandboxBanks = new Set(listed.flat().map((b) => b.id));
    const operations = providerOperations();
    const allowed: Record<string, (v: string) => boolean> = {
      method: (v) => (LABEL_VALUES.method as readonly string[]).includes(v),
      route: (v) => templates.has(v) || v === "other",
      status: (v) => /^[1-5]\d\d$/.test(v),
      operation: (v) => operations.has(v) || v === "other",
      outcome: (v) => [...LABEL_VALUES.providerOutcome, ...LABEL_VALUES.roundOutcome].includes(v as never),
      origin: (v) => (LABEL_VALUES.origin as readonly string[]).includes(v),
      // checkout_ended_total's status is a checkout status, the request's an HTTP code: both fixed.
      result: (v) => (LABEL_VALUES.deliveryResult as readonly string[]).includes(v),
      worker: (v) => ["reconcile", "autovacuum", "retention", "other"].includes(v),
      state: (v) => [...LABEL_VALUES.outboxState, ...LABEL_VALUES.poolState].includes(v as never),
      group: (v) => (LABEL_VALUES.inFlightGroup as readonly string[]).includes(v),
      // A bank the provider lists (lib/metrics/record.ts counts any other as other).
      bank: (v) => ["none", "other"].includes(v) || sandboxBanks.has(v),
      le: (v) => v === "+Inf" || Number.isFinite(Number(v)),
      // prom-client's process metrics: GC kinds, V8 heap spaces, libuv resource types, Node's version.
      kind: (v) => ["major", "minor", "incremental", "weakcb"].includes(v),
      space: (v) => /^[a-z_]{1,40}$/.test(v),
      type: (v) => /^[A-Za-z]{1,40}$/.test(v),
      version: (v) => v === process.version,
      major: (v) => v === process.versions.node.split(".")[0],
      minor: (v) => v === process.versions.node.split(".")[1],
      patch: (v) => v === process.versions.node.split(".")[2],
    };
    const ended = (v: string) => (LABEL_VALUES.endedStatus as readonly string[]).includes(v);
    const methods = (v: string) => (LABEL_VALUES.paymentMethod as readonly string[]).includes(v);
    for (const s of samples(text)) {
      for (const [label, v] of Object.entries(s.labels)) {
        const ok =
          s.name === "checkout_ended_total" && label === "status"
            ? ended(v)
            : s.name === "checkout_ended_total" && label === "method"
              ? methods(v)
              : (allowed[label]?.(v) ?? false);
        expect(ok, `${s.name}{${label}="${v}"}`).toBe(true);
      }
    }
    const routes = new Set(samples(text).flatMap((s) => (s.labels.route ? [s.labels.route] : [])));
    expect(routes).toContain("/api/{...path}");
    expect(routes).toContain("/pay/{id}/qr");
    expect(routes).toContain("/api/checkouts/{id}/status");
  });
});
