import type { SpanProcessor } from "@opentelemetry/sdk-trace-base";
import { logTraceIds, logger } from "../log/logger";
import { WarningExporter } from "./export-warnings";

/*
 * Traces (ADR 35): OpenTelemetry's Node SDK, started from instrumentation.ts only when an OTLP
 * endpoint is set. Nothing of the SDK is imported before that (the imports below are dynamic),
 * so a server without an endpoint loads none of it, and the spans the app makes (lib/http/route.ts,
 * lib/pis/transport.ts, lib/checkout/outbox.ts) go to @opentelemetry/api's no-op tracer.
 */

/** Whether the environment asks for traces: an OTLP endpoint is set and the SDK is not disabled. */
export function tracingWanted(e: NodeJS.ProcessEnv = process.env): boolean {
  return !!(e.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || e.OTEL_EXPORTER_OTLP_ENDPOINT) && e.OTEL_SDK_DISABLED !== "true";
}

export const DEFAULT_SERVICE_NAME = "bank-checkout";
export const TRACE_PROTOCOLS = ["http/protobuf", "http/json"] as const;

/** Where spans go, as a log line may name it: the traces URL without any user or password. */
export function tracesEndpoint(e: NodeJS.ProcessEnv = process.env): string {
  const given =
    e.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || `${(e.OTEL_EXPORTER_OTLP_ENDPOINT ?? "").replace(/\/+$/, "")}/v1/traces`;
  try {
    const url = new URL(given);
    return `${url.origin}${url.pathname}`;
  } catch {
    return "the OTLP endpoint";
  }
}

export interface Tracing {
  /** Sends what is queued now (tests; the exit below). */
  flush(): Promise<void>;
  /** Sends what is still queued, then stops tracing. */
  shutdown(): Promise<void>;
}

/**
 * Starts the SDK: the standard OTEL_* variables are honoured (endpoint, headers, timeout,
 * compression, protocol, sampler, propagators, resource attributes, batch sizes), the service is
 * named bank-checkout unless OTEL_SERVICE_NAME or OTEL_RESOURCE_ATTRIBUTES name it, and database
 * statements are traced through node-postgres, which both databases are spoken to with.
 * `alsoTo` gets every span as well (a test's in-memory exporter); `now` is the warnings' clock.
 */
export async function startTracing(
  opts: { alsoTo?: SpanProcessor[]; warn?: (line: string) => void; now?: () => number } = {},
): Promise<Tracing | undefined> {
  const warn = opts.warn ?? ((line: string) => logger.warn(line));
  const protocol = process.env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL || process.env.OTEL_EXPORTER_OTLP_PROTOCOL;
  if (protocol && !(TRACE_PROTOCOLS as readonly string[]).includes(protocol)) {
    warn(`traces: off: OTLP protocol ${protocol} is not supported here; use http/protobuf or http/json`);
    return undefined;
  }
  const [{ OTLPTraceExporter }, { BatchSpanProcessor }, { NodeSDK }, { PgInstrumentation }] = await Promise.all([
    protocol === "http/json"
      ? import("@opentelemetry/exporter-trace-otlp-http")
      : import("@opentelemetry/exporter-trace-otlp-proto"),
    import("@opentelemetry/sdk-trace-base"),
    import("@opentelemetry/sdk-node"),
    import("@opentelemetry/instrumentation-pg"),
  ]);
  // The exporter reads OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT, _HEADERS, _TIMEOUT and _COMPRESSION,
  // the batch processor OTEL_BSP_*: spans are queued and sent in the background, never waited for.
  const exporter = new WarningExporter(new OTLPTraceExporter(), tracesEndpoint(), warn, { now: opts.now });
  const batch = new BatchSpanProcessor(exporter);
  const named =
    !!process.env.OTEL_SERVICE_NAME || /(^|,)\s*service\.name\s*=/.test(process.env.OTEL_RESOURCE_ATTRIBUTES ?? "");
  // Statements outside a request or a delivery (the outbox's claim every second, the worker's
  // rounds) would each be a trace of one span: noise. Parameters are never recorded.
  const pg = new PgInstrumentation({ requireParentSpan: true, enhancedDatabaseReporting: false });
  const sdk = new NodeSDK({
    serviceName: named ? undefined : DEFAULT_SERVICE_NAME,
    spanProcessors: [batch, ...(opts.alsoTo ?? [])],
    // Traces only: metrics are Prometheus's (ADR 34), logs are the JSON lines on stdout.
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [pg],
  });
  sdk.start();
  await patchLoadedPg(pg);
  logTraceIds();
  return {
    // A failed export has been reported by the exporter above; a flush does not fail for it.
    flush: () => batch.forceFlush().catch(() => {}),
    shutdown: () => sdk.shutdown().catch(() => {}),
  };
}

/**
 * The instrumentation patches node-postgres as Node's require() loads it; an import of its ES module
 * entry (what the server's bundle and vitest do) bypasses that hook. Both entries share one Client
 * class, so the module is handed to the instrumentation here as well; patching twice is a no-op.
 * The embedded database is spoken to through the same class (lib/db/client.ts), so both databases'
 * statements are traced.
 */
async function patchLoadedPg(instrumentation: {
  getModuleDefinitions(): { name: string; patch?: (exports: never) => unknown }[];
}): Promise<void> {
  const loaded = (await import("pg")) as { default?: unknown };
  for (const definition of instrumentation.getModuleDefinitions())
    if (definition.name === "pg") definition.patch?.((loaded.default ?? loaded) as never);
}

const FLUSH_MS = 2_000;

/**
 * Holds every process.exit (the graceful shutdown's, lib/checkout/shutdown.ts, comes last) until the
 * spans still queued are sent, for at most 2 s: a collector that is down delays a stop by that much,
 * never more.
 */
export function flushTracesOnExit(tracing: Tracing): void {
  const exit = process.exit.bind(process);
  let flushing = false;
  process.exit = ((code?: number | string | null) => {
    if (flushing) return exit(code);
    flushing = true;
    const deadline = new Promise((resolve) => setTimeout(resolve, FLUSH_MS).unref());
    void Promise.race([tracing.shutdown(), deadline])
      .catch(() => {})
      .finally(() => exit(code));
  }) as typeof process.exit;
}
