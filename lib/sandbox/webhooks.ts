import { createHmac } from "node:crypto";
import { MAX_DELIVERIES, type Store, type WebhookJob } from "./store";

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
 * Delays between attempts. The provider retries "periodically for up to 2 days" until it gets a
 * 200; this schedule backs off quickly and ends just inside that: 14 attempts over about 47.7 hours.
 */
export const DEFAULT_RETRY_DELAYS_MS = [
  1_000, 5_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000, 7_200_000, 14_400_000, 28_800_000, 43_200_000,
  43_200_000, 28_800_000,
];

const ATTEMPT_TIMEOUT_MS = 10_000;

/**
 * Where to POST and with which Authorization. The reference says nothing of a Webhook-URL with
 * user:password, and fetch refuses such URLs; the sandbox sends them as an HTTP client would (the
 * credentials as Basic auth), while the signature still covers the URL exactly as given.
 */
function target(webhookUrl: string): { url: string; authorization?: string } {
  const url = new URL(webhookUrl);
  if (url.username === "" && url.password === "") return { url: webhookUrl };
  const credentials = `${decode(url.username)}:${decode(url.password)}`;
  url.username = "";
  url.password = "";
  return { url: url.href, authorization: `Basic ${Buffer.from(credentials, "utf8").toString("base64")}` };
}

function decode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

export type NewWebhook = Pick<WebhookJob, "type" | "projectId" | "paymentId" | "refundId" | "url" | "rawBody">;

export interface WebhookDispatcher {
  /** Queues a webhook; it is delivered in the background, never holding up the caller. */
  enqueue(webhook: NewWebhook, firstDelayMs?: number): WebhookJob;
  /** Re-arms the timers from the jobs in the store: after loading saved state or time travel. */
  reschedule(): void;
  /** Drops timers and in-flight attempts (the store is being cleared). */
  reset(): void;
  /** Stops for good. */
  close(): void;
}

export function createWebhookDispatcher(opts: {
  store: Store;
  /** The sandbox clock: when attempts are due, and the delivery log. */
  now: () => number;
  /**
   * The clock of X-Kevin-Timestamp: not time-travelled, since the merchant's clock does not travel
   * and would reject the signature as stale (or from the future). Default: `now`.
   */
  wallClock?: () => number;
  secretFor: (projectId: string) => string | undefined;
  retryDelaysMs?: readonly number[];
  onChange?: () => void;
}): WebhookDispatcher {
  const { store, now } = opts;
  const delays = opts.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  const timers = new Map<number, NodeJS.Timeout>();
  const inFlight = new Map<number, AbortController>();
  let closed = false;

  function schedule(job: WebhookJob) {
    const old = timers.get(job.id);
    if (old) clearTimeout(old);
    timers.delete(job.id);
    if (closed || job.nextAttemptAt === undefined || inFlight.has(job.id)) return;
    const timer = setTimeout(
      () => {
        timers.delete(job.id);
        void deliver(job.id);
      },
      Math.max(0, job.nextAttemptAt - now()),
    );
    // Pending retries must not keep a finished test run or a stopping server alive.
    timer.unref();
    timers.set(job.id, timer);
  }

  async function deliver(jobId: number) {
    const job = store.webhookJobs.get(jobId);
    const secret = job && opts.secretFor(job.projectId);
    if (closed || !job || job.nextAttemptAt === undefined || secret === undefined) return;
    // A fresh timestamp per attempt: receivers reject signatures older than 5 minutes.
    const timestamp = String((opts.wallClock ?? now)());
    const controller = new AbortController();
    const timeout = setTimeout(
      () => controller.abort(new Error(`timed out after ${ATTEMPT_TIMEOUT_MS} ms`)),
      ATTEMPT_TIMEOUT_MS,
    );
    inFlight.set(job.id, controller);
    const started = Date.now();
    let statusCode: number | null = null;
    let error: string | undefined;
    try {
      const { url, authorization } = target(job.url);
      const response = await fetch(url, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          "X-Kevin-Timestamp": timestamp,
          "X-Kevin-Signature": signWebhook({ secret, url: job.url, timestamp, rawBody: job.rawBody }),
          "User-Agent": "kevin-sandbox-webhooks",
          ...(authorization !== undefined && { Authorization: authorization }),
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
      inFlight.delete(job.id);
    }
    // Reset or closed meanwhile: this attempt belongs to a store that no longer exists.
    if (closed || store.webhookJobs.get(job.id) !== job) return;

    const delay = statusCode === 200 ? undefined : delays[job.attempt - 1];
    const at = now();
    store.deliveries.push({
      jobId: job.id,
      type: job.type,
      paymentId: job.paymentId,
      ...(job.refundId !== undefined && { refundId: job.refundId }),
      url: job.url,
      attempt: job.attempt,
      at,
      durationMs: Date.now() - started,
      statusCode,
      ...(error !== undefined && { error }),
      ...(delay !== undefined && { nextAttemptAt: at + delay }),
      rawBody: job.rawBody,
    });
    if (store.deliveries.length > MAX_DELIVERIES) store.deliveries.splice(0, store.deliveries.length - MAX_DELIVERIES);
    job.attempt += 1;
    if (delay === undefined) delete job.nextAttemptAt;
    else job.nextAttemptAt = at + delay;
    opts.onChange?.();
    schedule(job);
  }

  function dropAll() {
    for (const timer of timers.values()) clearTimeout(timer);
    timers.clear();
    for (const controller of inFlight.values()) controller.abort(new Error("sandbox reset"));
    inFlight.clear();
  }

  return {
    enqueue(webhook, firstDelayMs = 0) {
      store.counters.webhookJob += 1;
      const job: WebhookJob = {
        id: store.counters.webhookJob,
        ...webhook,
        attempt: 1,
        nextAttemptAt: now() + firstDelayMs,
      };
      store.webhookJobs.set(job.id, job);
      schedule(job);
      return job;
    },
    reschedule() {
      for (const job of store.webhookJobs.values()) schedule(job);
    },
    reset: dropAll,
    close() {
      closed = true;
      dropAll();
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
