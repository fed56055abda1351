import { createServer } from "node:http";
import { Writable } from "node:stream";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { freshAppFor } from "@/app/api/test-env";
import type { Tracing } from "./start";
import { closedPort } from "../test-helpers/closed-port";

/**
 * Tracing as a deployment runs it (ADR 35): the SDK started as instrumentation.ts starts it, with an
 * OTLP endpoint that is down, and an in-memory exporter beside it to read the spans. One payment
 * through the payer's Pay route handler, against the sandbox provider, on the embedded database.
 */
const APP = "http://localhost:3000";
const json = (path: string, body: unknown) =>
  new Request(`${APP}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: "Bearer dev-merchant-key" },
    body: JSON.stringify(body),
  });

describe("traces", () => {
  freshAppFor("pglite");
  const spans = new InMemorySpanExporter();
  const lines: Record<string, unknown>[] = [];
  const warnings: string[] = [];
  let clock = 0;
  let tracing: Tracing;

  beforeAll(async () => {
    vi.stubEnv("OTEL_EXPORTER_OTLP_ENDPOINT", `http://127.0.0.1:${await closedPort()}`);
    // The exporter gives up on a refused connection at once rather than retrying for 10 s.
    vi.stubEnv("OTEL_EXPORTER_OTLP_TIMEOUT", "300");
    // Spans go out when the test flushes them, not every 5 s of its own: each export is counted.
    vi.stubEnv("OTEL_BSP_SCHEDULE_DELAY", "600000");
    const { startTracing, tracingWanted } = await import("./start");
    expect(tracingWanted()).toBe(true);
    tracing = (await startTracing({
      alsoTo: [new SimpleSpanProcessor(spans)],
      warn: (line) => warnings.push(line),
      now: () => clock,
    }))!;
    const { logTo } = await import("@/lib/log/logger");
    logTo(
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          for (const line of chunk.toString("utf8").split("\n")) if (line) lines.push(JSON.parse(line));
          done();
        },
      }),
    );
  });
  afterAll(() => tracing?.shutdown());

  let id = "";
  beforeAll(async () => {
    // A checkout from the merchant; opening the embedded database is most of this file's time.
    const checkouts = await import("@/app/api/checkouts/route");
    const created = await checkouts.POST(
      json("/api/checkouts", {
        amount: "12.50",
        currency: "EUR",
        description: "Traced",
        reference: "traced-1",
        returnUrl: "https://shop.example/done",
      }),
      { params: Promise.resolve({}) },
    );
    ({ id } = (await created.json()) as { id: string });
  });

  it("one payment is one trace from the payer's Pay to the provider's call, and its log line carries the trace id", async () => {
    const payments = await import("@/app/api/checkouts/[checkoutId]/payments/route");
    spans.reset();

    const paid = await payments.POST(
      json(`/api/checkouts/${id}/payments`, {
        method: "bank",
        bankId: "SEB_LT_SAND",
        termsAccepted: true,
        attemptKey: "traced-attempt-1",
      }),
      { params: Promise.resolve({ checkoutId: id }) },
    );
    expect(paid.status).toBe(200); // the collector being down changes nothing for the payer
    const { confirmLink } = (await paid.json()) as { confirmLink: string };

    const finished = spans.getFinishedSpans();
    const root = finished.find((s) => s.name === "POST /api/checkouts/{id}/payments")!;
    expect(root).toBeDefined();
    expect(root.parentSpanContext).toBeUndefined();
    expect(root.attributes).toMatchObject({
      "http.route": "/api/checkouts/{id}/payments",
      "http.response.status_code": 200,
    });
    const traceId = root.spanContext().traceId;
    expect(new Set(finished.map((s) => s.spanContext().traceId))).toEqual(new Set([traceId]));

    const provider = finished.find((s) => s.name === "provider initiatePayment")!;
    expect(provider).toBeDefined();
    expect(ancestry(provider, finished)).toContain(root.spanContext().spanId);
    const paymentId = provider.attributes["pis.payment_id"];
    expect(typeof paymentId === "string" && confirmLink.includes(paymentId)).toBe(true);
    expect(provider.attributes["http.response.status_code"]).toBe(200);

    // The database's statements sit in the same trace, under the request, without their values.
    const statements = finished.filter((s) => s.attributes["db.system.name"] === "postgresql");
    expect(statements.length).toBeGreaterThan(0);
    for (const s of statements) {
      expect(ancestry(s, finished)).toContain(root.spanContext().spanId);
      expect(Object.keys(s.attributes).filter((k) => /values|parameter/.test(k))).toEqual([]);
    }

    const requestLine = lines.find((l) => l.msg === "request" && l.route === "/api/checkouts/{id}/payments");
    expect(requestLine).toMatchObject({ trace_id: traceId, span_id: root.spanContext().spanId });
  });

  it("puts a provider's own request id, when its answer has one, on the call's span", async () => {
    const provider = createServer((_req, res) => {
      const body = JSON.stringify({ data: ["LT"] });
      res.writeHead(200, {
        "Content-Type": "application/json",
        "Content-Length": body.length,
        "X-Request-Id": "req-7f3a",
      });
      res.end(body);
    }).listen(0, "127.0.0.1");
    await new Promise((resolve) => provider.once("listening", resolve));
    try {
      const { createPisClient } = await import("@/lib/pis");
      const { port } = provider.address() as { port: number };
      const client = createPisClient({
        baseUrl: `http://127.0.0.1:${port}/platform`,
        clientId: "id",
        clientSecret: "secret",
      });
      spans.reset();
      expect(await client.general.countries()).toEqual(["LT"]);
      const call = spans.getFinishedSpans().find((s) => s.name === "provider getCountries");
      expect(call?.attributes).toMatchObject({ "pis.request_id": "req-7f3a", "http.response.status_code": 200 });
    } finally {
      provider.close();
    }
  });

  it("an OTLP endpoint that is down is said once a minute, not once per export", async () => {
    clock = 0;
    await tracing.flush();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^traces: http:\/\/127\.0\.0\.1:\d+\/v1\/traces did not take 1 export\(s\), \d+ span\(s\) lost/,
    );

    spans.reset();
    await somethingTraced();
    clock = 59_000;
    await tracing.flush();
    expect(warnings).toHaveLength(1);

    await somethingTraced();
    clock = 61_000;
    await tracing.flush();
    expect(warnings).toHaveLength(2);
    // The second line counts what was lost since the first: both exports since.
    expect(warnings[1]).toContain("did not take 2 export(s)");
  });
});

/** A span to export. */
async function somethingTraced() {
  const { trace } = await import("@opentelemetry/api");
  trace.getTracer("test").startSpan("something").end();
}

/** The span ids from `span`'s parent up to its trace's root. */
function ancestry(span: ReadableSpan, all: ReadableSpan[]): string[] {
  const byId = new Map(all.map((s) => [s.spanContext().spanId, s]));
  const ids: string[] = [];
  for (let parent = span.parentSpanContext?.spanId; parent; parent = byId.get(parent)?.parentSpanContext?.spanId)
    ids.push(parent);
  return ids;
}
