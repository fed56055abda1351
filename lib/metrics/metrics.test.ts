import { drizzle } from "drizzle-orm/node-postgres";
import { Pool } from "pg";
import { describe, expect, it, vi } from "vitest";
import type { Db } from "../db/client";
import { route, routeOf } from "../http/route";
import { PisError } from "../pis";
import { everyInterval, observeRounds } from "../rounds";
import { mayReadMetrics } from "./access";
import { watchDatabase } from "./collect";
import { checkoutMetrics, recordProviderCall, recordRequest, recordRound } from "./record";
import { MAX_BANK_LABELS, metrics } from "./registry";

const TOKEN = "a-metrics-token-of-some-length";
const headers = (h: Record<string, string>) => new Headers(h);

/** The samples of one metric whose labels include `labels`, as a scrape would show them. */
async function valueOf(name: string, labels: Record<string, string>): Promise<number | undefined> {
  const metric = metrics().registry.getSingleMetric(name);
  const { values } = await metric!.get();
  return values.find((v) => Object.entries(labels).every(([k, want]) => String(v.labels[k]) === want))?.value;
}

describe("who may read the metrics", () => {
  it("takes the token as a bearer, and nothing like it", () => {
    expect(mayReadMetrics(headers({ Authorization: `Bearer ${TOKEN}` }), TOKEN, 0)).toBe(true);
    expect(mayReadMetrics(headers({ Authorization: `bearer  ${TOKEN} ` }), TOKEN, 0)).toBe(true);
    expect(mayReadMetrics(headers({ Authorization: `Bearer ${TOKEN}x` }), TOKEN, 0)).toBe(false);
    expect(mayReadMetrics(headers({ Authorization: TOKEN }), TOKEN, 0)).toBe(false);
    // No token set: a bearer alone opens nothing.
    expect(mayReadMetrics(headers({ Authorization: "Bearer " }), undefined, 0)).toBe(false);
  });

  it("lets this machine in by its socket's address, unless a proxy on it forwards someone else", () => {
    expect(mayReadMetrics(headers({ "x-checkout-peer": "127.0.0.1" }), undefined, 0)).toBe(true);
    expect(mayReadMetrics(headers({ "x-checkout-peer": "::1" }), undefined, 0)).toBe(true);
    expect(mayReadMetrics(headers({ "x-checkout-peer": "10.0.0.5" }), undefined, 0)).toBe(false);
    expect(mayReadMetrics(headers({}), undefined, 0)).toBe(false);
    // next start sets X-Forwarded-For to the socket's address when a request has none.
    const stamped = { "x-checkout-peer": "::ffff:127.0.0.1", "x-forwarded-for": "::ffff:127.0.0.1" };
    expect(mayReadMetrics(headers(stamped), undefined, 0)).toBe(true);
    const forwarded = { "x-checkout-peer": "127.0.0.1", "x-forwarded-for": "203.0.113.9" };
    expect(mayReadMetrics(headers(forwarded), undefined, 0)).toBe(false);
    const spoofed = { "x-checkout-peer": "127.0.0.1", "x-forwarded-for": "203.0.113.9, 127.0.0.1" };
    expect(mayReadMetrics(headers(spoofed), undefined, 0)).toBe(false);
    expect(
      mayReadMetrics(headers({ "x-checkout-peer": "127.0.0.1", forwarded: "for=203.0.113.9" }), undefined, 0),
    ).toBe(false);
  });

  it("behind TRUSTED_PROXY_HOPS, goes by the address the outermost proxy saw, as rate limits do", () => {
    const via = (chain: string) => headers({ "x-checkout-peer": "10.0.0.2", "x-forwarded-for": chain });
    expect(mayReadMetrics(via("127.0.0.1"), undefined, 1)).toBe(true);
    expect(mayReadMetrics(via("203.0.113.9"), undefined, 1)).toBe(false);
    // What the client wrote to the left of the proxy's entry is not believed.
    expect(mayReadMetrics(via("127.0.0.1, 203.0.113.9"), undefined, 1)).toBe(false);
  });
});

describe("route templates", () => {
  const at = (p: string) => new Request(`http://app.test${p}`);

  it("writes each path parameter's segment as {id} and a catch-all's as {...path}", () => {
    expect(routeOf(at("/api/payment-links/plink_abc/deactivate"), { linkId: "plink_abc" })).toBe(
      "/api/payment-links/{id}/deactivate",
    );
    expect(routeOf(at("/pay/Ab3xYz/qr"), { slug: "Ab3xYz" })).toBe("/pay/{id}/qr");
    expect(routeOf(at("/api/a/b/c"), { unknown: ["a", "b", "c"] })).toBe("/api/{...path}");
    expect(routeOf(at("/pay/caf%C3%A9/qr"), { slug: "café" })).toBe("/pay/{id}/qr");
    // A value that is also a word of the path: one segment replaced, the rest still the source's words.
    expect(routeOf(at("/api/checkouts/status/status"), { checkoutId: "status" })).toBe("/api/checkouts/{id}/status");
  });

  it("records a route Next calls without params (a route with no parameters gets none in production)", async () => {
    const handler = route({}, async () => ({ ok: true }));
    const res = await handler(at("/api/health"), { params: undefined as never });
    expect(res.status).toBe(200);
    expect(
      await valueOf("checkout_http_request_duration_seconds", { method: "GET", route: "/api/health", status: "200" }),
    ).toBeDefined();
  });

  it("takes ids out by their look when it has no parameters", () => {
    expect(routeOf(at("/api/checkouts/co_abc123/payments"))).toBe("/api/checkouts/{id}/payments");
  });
});

describe("recording", () => {
  it("counts a value outside its fixed list as other, never as itself", async () => {
    recordRequest("BREW", "/api/checkouts/co_secret123", 999, 5);
    recordRequest("GET", "/api/has space", 200, 5);
    expect(
      await valueOf("checkout_http_request_duration_seconds", { method: "other", route: "other", status: "other" }),
    ).toBeDefined();
    const text = await metrics().registry.metrics();
    expect(text).not.toContain("co_secret123");
    expect(text).not.toContain("has space");
  });

  it("sorts provider calls by operation and outcome", async () => {
    recordProviderCall({ operation: "getBanks", durationMs: 12 });
    recordProviderCall({
      operation: "initiatePayment",
      durationMs: 30,
      error: new PisError({ kind: "http", httpStatus: 503, operation: "initiatePayment" }),
    });
    recordProviderCall({
      operation: "getPaymentStatus",
      durationMs: 15_000,
      error: new PisError({ kind: "timeout", operation: "getPaymentStatus" }),
    });
    recordProviderCall({ operation: "https://evil.example/x", durationMs: 1 });
    const count = (labels: Record<string, string>) => valueOf("checkout_provider_request_duration_seconds", labels);
    expect(await count({ operation: "getBanks", outcome: "ok", le: "0.025" })).toBeGreaterThanOrEqual(1);
    expect(await count({ operation: "initiatePayment", outcome: "http_5xx", le: "+Inf" })).toBeGreaterThanOrEqual(1);
    expect(await count({ operation: "getPaymentStatus", outcome: "timeout", le: "+Inf" })).toBeGreaterThanOrEqual(1);
    expect(await count({ operation: "other", outcome: "ok", le: "+Inf" })).toBeGreaterThanOrEqual(1);
  });

  it("names the bank of an ended checkout only when the provider listed it, and a bounded number of them", async () => {
    checkoutMetrics.banksListed(["SWEDBANK_LT", "bad id with spaces", "other"]);
    checkoutMetrics.ended("paid", "bank", "SWEDBANK_LT");
    checkoutMetrics.ended("failed", "bank", "MADE_UP_BANK_1");
    checkoutMetrics.ended("failed", "bank", "bad id with spaces");
    checkoutMetrics.ended("expired", null, null);
    const ended = (labels: Record<string, string>) => valueOf("checkout_ended_total", labels);
    expect(await ended({ status: "paid", method: "bank", bank: "SWEDBANK_LT" })).toBe(1);
    expect(await ended({ status: "failed", method: "bank", bank: "other" })).toBe(2);
    expect(await ended({ status: "expired", method: "none", bank: "none" })).toBe(1);
    // A provider listing thousands of banks (or a fault feeding it junk) cannot make thousands of series.
    checkoutMetrics.banksListed(Array.from({ length: MAX_BANK_LABELS + 50 }, (_, i) => `BANK_${i}`));
    checkoutMetrics.ended("paid", "bank", `BANK_${MAX_BANK_LABELS + 10}`);
    expect(await ended({ status: "paid", method: "bank", bank: "other" })).toBe(1);
    const text = await metrics().registry.metrics();
    expect(text).not.toContain("MADE_UP_BANK_1");
    expect(text).not.toContain("bad id");
  });

  it("leaves the database's series out of a scrape when the database does not answer", async () => {
    // A real client at an address where no database listens: refused at once.
    const unreachable = drizzle(new Pool({ connectionString: "postgres://nobody@127.0.0.1:1/none" }));
    watchDatabase(unreachable as unknown as Db);
    try {
      const text = await metrics().registry.metrics();
      for (const name of [
        "checkout_outbox_notifications",
        "checkout_outbox_oldest_pending_age_seconds",
        "checkout_payments_in_flight",
        "checkout_payments_in_flight_over_30m",
      ]) {
        expect(text, name).toContain(`# TYPE ${name} gauge`);
        expect(text, name).not.toMatch(new RegExp(`^${name}(\\{| )`, "m"));
      }
    } finally {
      watchDatabase(undefined);
      await (unreachable.$client as Pool).end();
    }
  });

  it("times each background round by its worker's name, failed ones too", async () => {
    observeRounds(recordRound);
    let n = 0;
    const stop = everyInterval(
      async () => {
        if (++n === 2) throw new Error("round failed");
      },
      10,
      () => {},
      "reconcile",
    );
    await expect.poll(() => n, { timeout: 2000 }).toBeGreaterThanOrEqual(3);
    await stop();
    observeRounds(undefined);
    const rounds = (outcome: string) =>
      valueOf("checkout_worker_round_duration_seconds", { worker: "reconcile", outcome, le: "+Inf" });
    expect(await rounds("ok")).toBeGreaterThanOrEqual(2);
    expect(await rounds("failed")).toBeGreaterThanOrEqual(1);
  });

  it("keeps one registry per process, however often the module is loaded (a dev reload)", async () => {
    const first = metrics();
    vi.resetModules();
    const reloaded = await import("./registry");
    expect(reloaded.metrics()).toBe(first);
  });
});
