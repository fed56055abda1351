import { isSpanContextValid, trace } from "@opentelemetry/api";
import pino, { type DestinationStream, type Logger } from "pino";
import { redactArgs, redactError, redactText } from "./redact";

/**
 * The server's log: one JSON line per event on stdout (pretty in development), personal data and
 * secrets removed twice over: fields by name (censorFields), and every message and error through
 * redact.ts (IBANs, e-mail addresses, card numbers, tokens, a failed query's parameters).
 */

/** Fields whose values never reach the log, by name in any letter case, wherever they sit in a logged object. */
const SECRET_FIELDS = new Set(
  [
    "password",
    "authorization",
    "cookie",
    "iban",
    "creditorIban",
    "debtorIban",
    "creditorName",
    "payerName",
    "email",
    "accessToken",
    "refreshToken",
    "token",
    "clientSecret",
    "cardNumber",
    "cvc",
  ].map((name) => name.toLowerCase()),
);
const CENSOR = "[redacted]";
/** Deeper than any object we log (pino writes 5 levels), so a cycle ends here; what is below is not written. */
const MAX_DEPTH = 8;

/**
 * `value` with every SECRET_FIELDS field censored, in plain objects and arrays at any depth; the
 * same object when there is none (a request's line allocates nothing). Errors are left to the
 * `err` serializer. Not pino's `redact` paths: they cost every line about 11 µs, and each reaches
 * only the level it names (`*.email` missed a top-level `email`).
 */
function censorFields<T>(value: T, depth = 0): T {
  if (value === null || typeof value !== "object") return value;
  if (depth > MAX_DEPTH) return CENSOR as T;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((item, i) => {
      const censored = censorFields(item, depth + 1);
      if (censored !== item) (copy ??= [...value])[i] = censored;
    });
    return (copy ?? value) as T;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  const fields = value as Record<string, unknown>;
  let copy: Record<string, unknown> | undefined;
  for (const [key, item] of Object.entries(fields)) {
    const censored = SECRET_FIELDS.has(key.toLowerCase()) ? CENSOR : censorFields(item, depth + 1);
    if (censored !== item) (copy ??= { ...fields })[key] = censored;
  }
  return (copy ?? value) as T;
}

/** Set once tracing starts (lib/tracing/start.ts); on globalThis, as each server bundle has its own copy of this module. */
const tracing = globalThis as { __logTraceIds?: boolean };

/**
 * The active span's ids, as OpenTelemetry's own pino instrumentation names them, so a log line
 * leads to its trace and back. Asked only while tracing is on: otherwise no line pays for it.
 */
function traceFields(): Record<string, string> {
  const span = trace.getActiveSpan()?.spanContext();
  if (!span || !isSpanContextValid(span)) return {};
  return { trace_id: span.traceId, span_id: span.spanId, trace_flags: `0${span.traceFlags.toString(16)}` };
}

export function createLogger(destination?: DestinationStream, opts: { pretty?: boolean; level?: string } = {}): Logger {
  const options: pino.LoggerOptions = {
    ...(tracing.__logTraceIds ? { mixin: traceFields } : {}),
    level: opts.level ?? process.env.LOG_LEVEL ?? "info",
    base: { pid: process.pid },
    formatters: { level: (label) => ({ level: label }), log: (fields) => censorFields(fields) },
    serializers: { err: (err: unknown) => pino.stdSerializers.err(redactError(err)) },
    hooks: {
      logMethod(args, method) {
        // Messages (the string arguments) are masked; objects go through `redact` and the serializers.
        method.apply(this, args.map((a) => (typeof a === "string" ? redactText(a) : a)) as Parameters<typeof method>);
      },
    },
  };
  if (opts.pretty && !destination)
    return pino({ ...options, transport: { target: "pino-pretty", options: { colorize: true } } });
  return destination ? pino(options, destination) : pino(options);
}

/** This process's logger. */
export let logger = createLogger(undefined, { pretty: process.env.NODE_ENV === "development" });

/** Every line from now on carries the active span's trace and span ids (tracing has started). */
export function logTraceIds(): void {
  if (tracing.__logTraceIds) return;
  tracing.__logTraceIds = true;
  logger = createLogger(undefined, { pretty: process.env.NODE_ENV === "development" });
}

/** For tests: every line, whatever LOG_LEVEL says, goes to `destination` instead of stdout. */
export function logTo(destination: DestinationStream): void {
  logger = createLogger(destination, { level: "debug" });
}

/** A console call as a log line: errors as `err`, the rest as the message. */
export function logConsoleCall(log: Logger, level: "error" | "warn" | "info" | "debug", args: unknown[]): void {
  const err = args.find((a): a is Error => a instanceof Error);
  const msg = args
    .filter((a) => !(a instanceof Error))
    .map((a) => (typeof a === "string" ? a : safeJson(a)))
    .join(" ");
  if (err) log[level]({ err }, msg || err.message);
  else log[level](msg);
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

let installed = false;

/**
 * Every console line of this process becomes a log line of lib/log/logger.ts (JSON, redacted),
 * Next's own included (an error thrown while rendering is logged by Next, not by us). Installed
 * once at start-up.
 */
export function installLogRedaction(): void {
  if (installed) return;
  installed = true;
  const levels = { error: "error", warn: "warn", info: "info", log: "info", debug: "debug" } as const;
  for (const [method, level] of Object.entries(levels) as [
    keyof typeof levels,
    (typeof levels)[keyof typeof levels],
  ][]) {
    console[method] = (...args: unknown[]) => logConsoleCall(logger, level, redactArgs(args));
  }
}
