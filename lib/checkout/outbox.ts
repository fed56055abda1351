import { SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { and, eq, sql } from "drizzle-orm";
import { signingSecrets } from "../api-keys/notify-secrets";
import { rowsOf } from "../db/raw";
import { notifications } from "../db/schema";
import { noticeDatabaseAway } from "../db/unavailable";
import { nowOf, type CheckoutContext } from "./context";
import { tell } from "./observer";
import { postToMerchant } from "./merchant-post";
import { RETRY_DELAYS_MS, signNotification } from "./notifications";

/**
 * The outbox: notifications queued in the checkout's own transactions (notifications.ts) are
 * claimed by one instance at a time, sent to the merchant, and their result written down; the
 * loop that does it on every instance (startOutbox).
 */
/** A notification claimed by this instance until `lease` (its `locked_until`). */
interface Claimed {
  id: string;
  checkoutId: string;
  event: string;
  url: string;
  payload: string;
  attempts: number;
  lease: Date;
}

export interface OutboxOptions {
  /** Each delivery's own time limit: a slow notifyUrl holds up nothing but itself. */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 10_000;
// Room, past the delivery's own timeout, to write its result before another instance may take
// the notification over.
const LEASE_MARGIN_MS = 30_000;

/**
 * Claims up to `limit` due notifications for this instance. Several instances claim at once
 * without waiting on or sending each other's rows (SKIP LOCKED); a claim is a lease, so the rows
 * of an instance that dies mid-delivery are due again once it passes.
 */
async function claimDue(ctx: CheckoutContext, limit: number, timeoutMs: number): Promise<Claimed[]> {
  if (limit <= 0) return [];
  const now = nowOf(ctx);
  const lease = new Date(now.getTime() + timeoutMs + LEASE_MARGIN_MS);
  // A checkout's notifications go out in the order they happened: one waits while an earlier one of
  // its checkout is still being tried (until that is delivered or given up), or a merchant whose
  // "payment failed" is retried would hear "paid" first and "failed" last.
  const result = await ctx.db.execute(sql`
    update notifications set locked_until = ${lease}
    where id in (
      select id from notifications n
      where delivered_at is null and next_attempt_at <= ${now} and (locked_until is null or locked_until <= ${now})
        and not exists (
          select 1 from notifications earlier
          where earlier.checkout_id = n.checkout_id and earlier.delivered_at is null
            and earlier.attempts <= ${RETRY_DELAYS_MS.length}
            and (earlier.created_at, earlier.id) < (n.created_at, n.id)
        )
      order by next_attempt_at
      limit ${limit}
      for update skip locked
    )
    returning id, checkout_id as "checkoutId", event, url, payload, attempts`);
  return rowsOf<Omit<Claimed, "lease">>(result).map((r) => ({ ...r, lease }));
}

const tracer = trace.getTracer("bank-checkout");

/**
 * Each delivery is a trace of its own (ADR 35), not a part of the request that queued it: it goes
 * out after that request has answered, from whichever instance claims it, and its retries up to
 * two days later. The checkout and notification ids tie it to the rest.
 */
function deliverOne(ctx: CheckoutContext, n: Claimed, timeoutMs: number): Promise<boolean> {
  return tracer.startActiveSpan(
    "notification delivery",
    {
      root: true,
      kind: SpanKind.CLIENT,
      attributes: {
        "checkout.id": n.checkoutId,
        "checkout.notification_id": n.id,
        "checkout.event": n.event,
        "checkout.delivery_attempt": n.attempts + 1,
      },
    },
    async (span) => {
      try {
        const result = await deliverAndRecord(ctx, n, timeoutMs);
        span.setAttribute("checkout.delivery_result", result.outcome);
        if (result.status !== null) span.setAttribute("http.response.status_code", result.status);
        if (result.outcome !== "delivered") span.setStatus({ code: SpanStatusCode.ERROR, message: result.outcome });
        return result.outcome === "delivered";
      } catch (err) {
        span.setStatus({ code: SpanStatusCode.ERROR });
        throw err;
      } finally {
        span.end();
      }
    },
  );
}

/** One delivery: POST, then record the result, unless the lease was lost to another instance. */
async function deliverAndRecord(
  ctx: CheckoutContext,
  n: Claimed,
  timeoutMs: number,
): Promise<{ outcome: "delivered" | "failed" | "given_up"; status: number | null }> {
  const timestamp = String(Date.now());
  const secrets = await signingSecrets(ctx.db, ctx.config.tokenKeys, ctx.config.notifySecret);
  let status: number | null = null;
  let error: string | null = null;
  try {
    status = await postToMerchant(n.url, {
      headers: {
        "Content-Type": "application/json",
        "User-Agent": "bank-checkout-notifier/1",
        "Checkout-Event": n.event,
        // The same on every retry of this notification (it is also the body's `id`).
        "Checkout-Delivery-Id": n.id,
        "Checkout-Signature": signNotification(secrets, timestamp, n.payload),
      },
      body: n.payload,
      timeoutMs,
      allowPrivate: ctx.config.allowPrivateUrls,
    });
  } catch (err) {
    error = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  }
  const ok = status !== null && status >= 200 && status < 300;
  const attempts = n.attempts + 1;
  const delay = RETRY_DELAYS_MS[attempts - 1];
  const now = nowOf(ctx);
  // Written only while our lease stands: once another instance has taken the row over, its
  // result is the one that counts.
  await ctx.db
    .update(notifications)
    .set({
      attempts,
      lastStatus: status,
      lastError: ok ? null : (error ?? `HTTP ${status}`) + (delay === undefined ? " (gave up)" : ""),
      deliveredAt: ok ? now : null,
      lockedUntil: null,
      // Given up: parked far in the future rather than deleted, so the back office can show it.
      ...(ok ? {} : { nextAttemptAt: new Date(now.getTime() + (delay ?? 100 * 365 * 24 * 3600_000)) }),
    })
    .where(and(eq(notifications.id, n.id), eq(notifications.lockedUntil, n.lease)));
  const outcome = ok ? "delivered" : delay === undefined ? "given_up" : "failed";
  tell((o) => o.delivered(outcome));
  return { outcome, status };
}

/**
 * Delivers up to `limit` due notifications at once and waits for them; returns how many were
 * delivered. For tests and one-off runs; the server runs `startOutbox`.
 */
export async function deliverDueNotifications(
  ctx: CheckoutContext,
  opts: OutboxOptions & { limit?: number } = {},
): Promise<number> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const claimed = await claimDue(ctx, opts.limit ?? 50, timeoutMs);
  const results = await Promise.all(claimed.map((n) => deliverOne(ctx, n, timeoutMs)));
  return results.filter(Boolean).length;
}

/**
 * This instance's outbox: every `pollMs` it claims as many due notifications as it has free lanes
 * (`concurrency`) and sends each on its own, so a slow merchant occupies one lane for at most
 * its timeout while the rest flow. A claim that filled every free lane says more may be due: then
 * each lane that frees claims again at once rather than at the next poll, so a backlog drains as
 * fast as merchants answer, not at one batch a poll (the soak at 20 checkouts a second: eight a
 * second an instance, and notifications 18 s late).
 * Returns a stop function for shutdown: no new claims; the deliveries under way get `graceMs` to
 * finish and write their result, and the leases of those still going are given back, so another
 * instance sends them now instead of after the lease.
 */
export function startOutbox(
  ctx: CheckoutContext,
  opts: OutboxOptions & { pollMs?: number; concurrency?: number } = {},
): (graceMs?: number) => Promise<void> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const concurrency = opts.concurrency ?? 8;
  const inFlight = new Map<string, { lease: Date; done: Promise<unknown> }>();
  let claiming: Promise<void> | undefined;
  let stopped = false;
  let more = false;
  const tick = async () => {
    if (stopped || claiming || inFlight.size >= concurrency) return;
    claiming = (async () => {
      const free = concurrency - inFlight.size;
      const claimed = await claimDue(ctx, free, timeoutMs);
      more = claimed.length === free;
      for (const n of claimed) {
        const done = deliverOne(ctx, n, timeoutMs)
          .catch((err) => console.error("notification delivery failed", n.id, err))
          .finally(() => {
            inFlight.delete(n.id);
            if (more) void tick();
          });
        inFlight.set(n.id, { lease: n.lease, done });
      }
    })()
      .catch((err) => {
        more = false;
        // Every second on every instance: while the database stays away, this keeps the pages'
        // 503 hint fresh (lib/db/away.ts), with no page having to fail first.
        noticeDatabaseAway(err);
        console.error("notification claim failed", err);
      })
      .finally(() => (claiming = undefined));
  };
  const timer = setInterval(() => void tick(), opts.pollMs ?? 1000);
  timer.unref();
  void tick();
  return async (graceMs = 5_000) => {
    stopped = true;
    clearInterval(timer);
    await claiming;
    const deadline = new Promise((r) => setTimeout(r, graceMs).unref());
    await Promise.race([Promise.all([...inFlight.values()].map((d) => d.done)), deadline]);
    for (const [id, { lease }] of inFlight) {
      await ctx.db
        .update(notifications)
        .set({ lockedUntil: null })
        .where(and(eq(notifications.id, id), eq(notifications.lockedUntil, lease)));
    }
  };
}
