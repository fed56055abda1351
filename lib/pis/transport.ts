import { SpanKind, SpanStatusCode, trace, type Span } from "@opentelemetry/api";
import type { z } from "zod";
import { PisError } from "./errors";
import { errorEnvelope } from "./schemas";
import { httpSend, SendTimeout } from "./send";
import type { ApiVersion } from "./versions";

export interface RetryPolicy {
  /** Tries in all, the first included; 1 turns retries off. */
  attempts: number;
  /** Ceiling of the first back-off; doubles per retry. */
  baseMs: number;
  /** Upper bound of any single back-off. */
  maxMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 3, baseMs: 200, maxMs: 2_000 };

export interface PisConfig {
  /** Provider base without the version, e.g. "https://api.kevin.eu/platform". */
  baseUrl: string;
  /** API version; picks paths, headers and shapes. Default v0.3. */
  version?: ApiVersion;
  clientId: string;
  clientSecret: string;
  /** Per request (per try, for retried GETs). Default 15 s. */
  timeoutMs?: number;
  /** Back-off of retried GETs; POSTs are never retried. */
  retry?: Partial<RetryPolicy>;
  /** Sent as Plugin-* headers so the provider can tell integrations apart. */
  plugin?: { version: string; platform: string; platformVersion: string };
  /**
   * Told of every exchange with the provider, each try of a retried GET on its own (the app's
   * metrics). Called synchronously on the call's own path: it must be cheap, and what it throws
   * is ignored.
   */
  observe?: (call: PisCall) => void;
}

/** One exchange with the provider as an observer sees it: no ids, no bodies. */
export interface PisCall {
  operation: string;
  durationMs: number;
  /** Why it failed (a PisError, as the caller gets it); absent when the answer was read. */
  error?: unknown;
}

export type QueryValue = string | boolean | readonly string[] | undefined;

export interface RequestSpec<T extends z.ZodType> {
  /** The provider's operation id, carried into errors. */
  operation: string;
  method: "GET" | "POST";
  /** Path after the version segment, e.g. "/auth/banks". */
  path: string;
  query?: Record<string, QueryValue>;
  headers?: Record<string, string | undefined>;
  body?: unknown;
  schema: T;
}

export type Transport = <T extends z.ZodType>(spec: RequestSpec<T>) => Promise<z.infer<T>>;

/**
 * Jittered exponential back-off before retry number `retry` (1-based): somewhere between half and
 * all of min(maxMs, baseMs * 2^(retry-1)), so clients that failed together do not retry together,
 * yet every retry waits at least a little.
 */
export function backoffDelay(retry: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxMs, policy.baseMs * 2 ** (retry - 1));
  return ceiling / 2 + (random() * ceiling) / 2;
}

// A JSON string (escapes included) or a JSON number. Strings are matched whole, so digits inside
// them are never taken for numbers.
const JSON_TOKEN = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;

/**
 * Quotes every numeric value of a key named `amount`, exactly as the provider wrote it, so that
 * JSON.parse never turns money into a binary float ("12.50" stays "12.50", 0.1 stays "0.1").
 * Node 20 has no JSON.parse source-text access, hence the token scan.
 */
export function quoteNumericAmounts(text: string): string {
  let lastString: { value: string; end: number } | undefined;
  return text.replace(JSON_TOKEN, (token: string, offset: number) => {
    if (token.startsWith('"')) {
      lastString = { value: token, end: offset + token.length };
      return token;
    }
    const isAmountValue = lastString?.value === '"amount"' && /^\s*:\s*$/.test(text.slice(lastString.end, offset));
    return isAmountValue ? `"${token}"` : token;
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function retryable(err: PisError): boolean {
  return err.kind === "network" || err.kind === "timeout" || (err.kind === "http" && (err.httpStatus ?? 0) >= 500);
}

export function createTransport(config: PisConfig): Transport {
  const version = config.version ?? "v0.3";
  const base = `${config.baseUrl.replace(/\/+$/, "")}/${version}`;
  const timeoutMs = config.timeoutMs ?? 15_000;
  const policy: RetryPolicy = { ...DEFAULT_RETRY, ...config.retry };
  const host = new URL(base).host;

  async function once<T extends z.ZodType>(spec: RequestSpec<T>, attempt: number, span: Span): Promise<z.infer<T>> {
    const url = new URL(base + spec.path);
    for (const [k, v] of Object.entries(spec.query ?? {})) {
      if (v === undefined) continue;
      if (typeof v === "string" || typeof v === "boolean") url.searchParams.set(k, String(v));
      else for (const item of v) url.searchParams.append(k, item);
    }
    const headers: Record<string, string> = {
      Accept: "application/json",
      "Client-Id": config.clientId,
      "Client-Secret": config.clientSecret,
    };
    if (config.plugin) {
      headers["Plugin-Version"] = config.plugin.version;
      headers["Plugin-Platform"] = config.plugin.platform;
      headers["Plugin-Platform-Version"] = config.plugin.platformVersion;
    }
    for (const [k, v] of Object.entries(spec.headers ?? {})) if (v !== undefined) headers[k] = v;
    if (spec.body !== undefined) headers["Content-Type"] = "application/json";

    let status: number;
    let text: string;
    let requestId: string | undefined;
    try {
      ({ status, text, requestId } = await httpSend(url, {
        method: spec.method,
        headers,
        body: spec.body === undefined ? undefined : JSON.stringify(spec.body),
        timeoutMs,
      }));
    } catch (cause) {
      throw new PisError({
        kind: cause instanceof SendTimeout ? "timeout" : "network",
        operation: spec.operation,
        attempts: attempt,
        cause,
      });
    }

    span.setAttribute("http.response.status_code", status);
    if (requestId) span.setAttribute("pis.request_id", requestId);

    // The provider answers every success with exactly 200 (provider-api.md 1); anything else,
    // redirects included, is not a success.
    if (status !== 200) throw httpError(spec.operation, status, text, attempt);

    let json: unknown;
    try {
      json = JSON.parse(quoteNumericAmounts(text));
    } catch (cause) {
      throw new PisError({
        kind: "parse",
        operation: spec.operation,
        httpStatus: 200,
        description: "response is not JSON",
        attempts: attempt,
        cause,
      });
    }
    const parsed = spec.schema.safeParse(json);
    if (!parsed.success) {
      throw new PisError({
        kind: "parse",
        operation: spec.operation,
        httpStatus: 200,
        description: parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; "),
        attempts: attempt,
        cause: parsed.error,
      });
    }
    return parsed.data;
  }

  /**
   * One try as a span of its own (a client span, under the request or job that made the call), named
   * by the operation, with the ids to quote to the provider: its payment id, and its request id
   * when it sends one. Errors are named by kind and status only: the provider's description may
   * echo what was sent.
   */
  function tracedOnce<T extends z.ZodType>(spec: RequestSpec<T>, attempt: number): Promise<z.infer<T>> {
    return tracer.startActiveSpan(
      `provider ${spec.operation}`,
      {
        kind: SpanKind.CLIENT,
        attributes: {
          "pis.operation": spec.operation,
          "pis.attempt": attempt,
          "http.request.method": spec.method,
          "server.address": host,
        },
      },
      async (span) => {
        try {
          const answer = await once(spec, attempt, span);
          const paymentId = paymentIdOf(spec, answer);
          if (paymentId) span.setAttribute("pis.payment_id", paymentId);
          return answer;
        } catch (err) {
          const kind = err instanceof PisError ? err.kind : "error";
          span.setAttribute("error.type", kind);
          span.setStatus({ code: SpanStatusCode.ERROR, message: kind });
          throw err;
        } finally {
          span.end();
        }
      },
    );
  }

  function observe(operation: string, started: number, err?: unknown) {
    if (!config.observe) return;
    try {
      config.observe({ operation, durationMs: performance.now() - started, error: err });
    } catch {
      // An observer's fault must never fail a payment.
    }
  }

  return async function request<T extends z.ZodType>(spec: RequestSpec<T>): Promise<z.infer<T>> {
    // Only reads are safe to repeat: a POST whose answer was lost may still have created a payment
    // or a refund, and sending it again could create a second one.
    const tries = spec.method === "GET" ? Math.max(1, Math.floor(policy.attempts)) : 1;
    for (let attempt = 1; ; attempt++) {
      const started = performance.now();
      try {
        const answer = await tracedOnce(spec, attempt);
        observe(spec.operation, started);
        return answer;
      } catch (err) {
        observe(spec.operation, started, err);
        if (!(err instanceof PisError) || attempt >= tries || !retryable(err)) throw err;
        await sleep(backoffDelay(attempt, policy));
      }
    }
  };
}

const tracer = trace.getTracer("lib/pis");

/** The provider's id of the payment a call is about: in its path, or the answer of the call that made it. */
function paymentIdOf(spec: RequestSpec<z.ZodType>, answer: unknown): string | undefined {
  const inPath = /^\/pis\/payment\/([^/?]+)/.exec(spec.path)?.[1];
  if (inPath) {
    try {
      return decodeURIComponent(inPath);
    } catch {
      return inPath;
    }
  }
  const id = spec.operation === "initiatePayment" ? (answer as { id?: unknown } | null)?.id : undefined;
  return typeof id === "string" ? id : undefined;
}

function httpError(operation: string, status: number, text: string, attempts: number): PisError {
  let envelope: z.infer<typeof errorEnvelope> | undefined;
  try {
    const parsed = errorEnvelope.safeParse(JSON.parse(text));
    if (parsed.success) envelope = parsed.data;
  } catch {
    // Not every error carries the envelope (a 401 may have no body, a proxy's 502 is HTML); the
    // status still tells.
  }
  return new PisError({
    kind: "http",
    operation,
    httpStatus: status,
    code: envelope?.error?.code,
    name: envelope?.error?.name,
    description: envelope?.error?.description,
    data: envelope?.data,
    attempts,
  });
}

/** `Authorization` for a linked account: the official clients prepend "Bearer " when it is missing. */
export function bearer(accessToken: string): string {
  return /^bearer /i.test(accessToken) ? accessToken : `Bearer ${accessToken}`;
}
