import { createHmac } from "node:crypto";
import type { Store } from "./store";

/**
 * The provider's webhook signature (provider-api.md 7): lowercase hex HMAC-SHA256 keyed with the
 * endpoint secret over "POST" + the exact Webhook-URL string + the timestamp header + the raw body.
 */
export function signWebhook(input: { secret: string; url: string; timestamp: string; rawBody: string }): string {
  return createHmac("sha256", input.secret)
    .update(`POST${input.url}${input.timestamp}${input.rawBody}`, "utf8")
    .digest("hex");
}

/**
 * Delays between attempts. The provider retries "periodically for up to 2 days" until it gets a 200;
 * this schedule backs off quickly and stays under that (about 40 hours in 13 attempts).
 */
export const DEFAULT_RETRY_DELAYS_MS = [
  1_000, 5_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000, 7_200_000, 14_400_000, 28_800_000, 43_200_000, 43_200_000,
];

const ATTEMPT_TIMEOUT_MS = 10_000;

export interface WebhookJob {
  paymentId: string;
  url: string;
  rawBody: string;
  secret: string;
}

export interface WebhookDispatcher {
  /** Starts delivery in the background; never waits for the merchant. */
  send(job: WebhookJob): void;
  /** Stops pending retries and in-flight attempts. */
  close(): void;
}

export function createWebhookDispatcher(opts: {
  store: Store;
  now: () => number;
  retryDelaysMs?: readonly number[];
}): WebhookDispatcher {
  const delays = opts.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  const timers = new Set<NodeJS.Timeout>();
  const inFlight = new Set<AbortController>();
  let closed = false;

  function schedule(job: WebhookJob, attempt: number, delayMs: number) {
    if (closed) return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      void deliver(job, attempt);
    }, delayMs);
    // Pending retries must not keep a finished test run or a stopping server alive.
    timer.unref();
    timers.add(timer);
  }

  async function deliver(job: WebhookJob, attempt: number) {
    if (closed) return;
    // A fresh timestamp per attempt: receivers reject signatures older than 5 minutes.
    const timestamp = String(opts.now());
    const controller = new AbortController();
    const timeout = setTimeout(() => controller.abort(new Error(`timed out after ${ATTEMPT_TIMEOUT_MS} ms`)), ATTEMPT_TIMEOUT_MS);
    inFlight.add(controller);
    const started = Date.now();
    let statusCode: number | null = null;
    let error: string | undefined;
    try {
      const response = await fetch(job.url, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          "X-Kevin-Timestamp": timestamp,
          "X-Kevin-Signature": signWebhook({ secret: job.secret, url: job.url, timestamp, rawBody: job.rawBody }),
          "User-Agent": "kevin-sandbox-webhooks",
        },
        body: job.rawBody,
        // Only a 200 from the registered URL counts; a redirect is a failed attempt.
        redirect: "manual",
        signal: controller.signal,
      });
      statusCode = response.status;
      await response.body?.cancel();
    } catch (cause) {
      error = describe(controller.signal.reason ?? cause);
    } finally {
      clearTimeout(timeout);
      inFlight.delete(controller);
    }
    if (closed) return;

    const delay = statusCode === 200 ? undefined : delays[attempt - 1];
    opts.store.deliveries.push({
      paymentId: job.paymentId,
      url: job.url,
      attempt,
      at: opts.now(),
      durationMs: Date.now() - started,
      statusCode,
      ...(error !== undefined && { error }),
      ...(delay !== undefined && { nextAttemptAt: opts.now() + delay }),
    });
    if (delay !== undefined) schedule(job, attempt + 1, delay);
  }

  return {
    send(job) {
      schedule(job, 1, 0);
    },
    close() {
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      for (const controller of inFlight) controller.abort(new Error("sandbox closed"));
    },
  };
}

function describe(cause: unknown): string {
  if (cause instanceof Error) {
    const inner = cause.cause instanceof Error ? `: ${cause.cause.message}` : "";
    return `${cause.message}${inner}`;
  }
  return String(cause);
}
