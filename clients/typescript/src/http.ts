import { BankCheckoutError, errorFromAnswer } from "./errors.ts";

export interface ClientOptions {
  /** Where the checkout app is, e.g. `https://pay.example.com`. */
  baseUrl: string;
  /** A merchant API key (Bearer). */
  apiKey: string;
  /** Limit of each attempt, answer body included. Default 30 000 ms. */
  timeoutMs?: number;
  /** Retries after the first attempt, for answers that say `retry` and for no answer. Default 2. */
  maxRetries?: number;
  /** Another fetch (a test double, an instrumented one). Default: the global fetch. */
  fetch?: typeof fetch;
}

export interface CallOptions {
  /** A POST's Idempotency-Key. Default: a new random UUID per call, the same on each of its retries. */
  idempotencyKey?: string;
  /** This call's limit per attempt, instead of the client's. */
  timeoutMs?: number;
  /** Stops the call (and its retries) when aborted; the abort's reason is thrown. */
  signal?: AbortSignal;
}

export interface Call {
  method: "GET" | "POST";
  /**
   * A POST the app answers the same when it comes twice, so it may be retried: its Idempotency-Key
   * is honoured, or doing it again changes nothing. A GET always may.
   */
  repeatable?: true;
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  options?: CallOptions;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_RETRIES = 2;
const BACKOFF_BASE_MS = 500;
const BACKOFF_CAP_MS = 8_000;
/** A Retry-After longer than this is the caller's to decide: the error is thrown instead. */
const LONGEST_WAIT_MS = 60_000;

/**
 * Full jitter (a random wait between 0 and the exponential bound): clients that failed together
 * do not come back together.
 */
export function backoffMs(retry: number, random: () => number = Math.random): number {
  return random() * Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** retry);
}

/** One configured connection to the API: headers, timeouts, retries and errors for every call. */
export class Transport {
  private readonly baseUrl: string;
  private readonly apiKey: string;
  private readonly timeoutMs: number;
  private readonly maxRetries: number;
  private readonly fetch: typeof fetch;

  constructor(options: ClientOptions) {
    let base: URL;
    try {
      base = new URL(options.baseUrl);
    } catch {
      throw new TypeError(`baseUrl is not a URL: ${String(options.baseUrl)}`);
    }
    if (base.protocol !== "https:" && base.protocol !== "http:") throw new TypeError("baseUrl must be http(s)");
    if (typeof options.apiKey !== "string" || options.apiKey.trim() === "") throw new TypeError("apiKey is required");
    this.baseUrl = base.href.replace(/\/+$/, "");
    this.apiKey = options.apiKey;
    this.timeoutMs = intAtLeast(1, options.timeoutMs, DEFAULT_TIMEOUT_MS, "timeoutMs");
    this.maxRetries = intAtLeast(0, options.maxRetries, DEFAULT_MAX_RETRIES, "maxRetries");
    // Bound to globalThis: some runtimes refuse a fetch called as a method of another object.
    this.fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  async request<T>(call: Call): Promise<T> {
    const options = call.options ?? {};
    // The same key on every retry: a repeat is answered with what the first attempt made.
    const idempotencyKey = call.method === "POST" ? (options.idempotencyKey ?? crypto.randomUUID()) : undefined;
    const safeToRepeat = call.method === "GET" || call.repeatable === true;
    for (let retry = 0; ; retry++) {
      const outcome = await this.attempt<T>(call, idempotencyKey);
      if (!(outcome instanceof BankCheckoutError)) return outcome.data;
      const error = outcome;
      if (!error.retry || !safeToRepeat || retry >= this.maxRetries) throw error;
      const wait = Math.max(backoffMs(retry), (error.retryAfter ?? 0) * 1000);
      if (wait > LONGEST_WAIT_MS) throw error;
      await sleep(wait, options.signal);
    }
  }

  /** One try: the answer's data, or the error it ended in. Only the caller's own abort is thrown. */
  private async attempt<T>(call: Call, idempotencyKey: string | undefined): Promise<{ data: T } | BankCheckoutError> {
    const { signal } = call.options ?? {};
    signal?.throwIfAborted();
    const timeoutMs = intAtLeast(1, call.options?.timeoutMs, this.timeoutMs, "timeoutMs");
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    const onAbort = () => controller.abort();
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      const res = await this.fetch(this.url(call), {
        method: call.method,
        headers: this.headers(call, idempotencyKey),
        ...(call.body !== undefined && { body: JSON.stringify(call.body) }),
        signal: controller.signal,
        // A redirect means a wrong baseUrl (http for https, say): refused, and the key goes nowhere else.
        redirect: "manual",
      });
      // Read inside the timeout: an answer whose body stalls is no answer.
      const text = await res.text();
      if (!res.ok) return errorFromAnswer(res.status, res.headers, text);
      try {
        return { data: JSON.parse(text) as T };
      } catch (cause) {
        return new BankCheckoutError({
          code: "unexpected_response",
          status: res.status,
          detail: "The answer is not JSON",
          retry: false,
          requestId: res.headers.get("x-request-id") ?? undefined,
          cause,
        });
      }
    } catch (cause) {
      if (signal?.aborted) throw signal.reason;
      const timedOut = controller.signal.aborted;
      return new BankCheckoutError({
        code: timedOut ? "timeout" : "network_error",
        status: 0,
        detail: timedOut
          ? `No answer within ${timeoutMs} ms`
          : `No answer: ${cause instanceof Error ? cause.message : String(cause)}`,
        retry: true,
        cause,
      });
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    }
  }

  private url(call: Call): string {
    const url = new URL(this.baseUrl + call.path);
    for (const [name, value] of Object.entries(call.query ?? {}))
      if (value !== undefined) url.searchParams.set(name, String(value));
    return url.href;
  }

  private headers(call: Call, idempotencyKey: string | undefined): Record<string, string> {
    return {
      Authorization: `Bearer ${this.apiKey}`,
      Accept: "application/json",
      ...(call.body !== undefined && { "Content-Type": "application/json" }),
      ...(idempotencyKey !== undefined && { "Idempotency-Key": idempotencyKey }),
    };
  }
}

/** A path segment from a caller's id: `/` or `?` in it cannot reach another route. */
export const segment = (id: string): string => {
  if (typeof id !== "string" || id === "") throw new TypeError("an id is required");
  return encodeURIComponent(id);
};

function intAtLeast(min: number, value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < min) throw new TypeError(`${name} must be an integer of at least ${min}`);
  return value;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
