import { createHmac, randomUUID } from "node:crypto";
import { and, asc, eq, isNull, lte } from "drizzle-orm";
import { notifications } from "../db/schema";
import type { Tx } from "./apply-status";
import { nowOf, type CheckoutContext } from "./context";

/**
 * Notifications to the merchant's notifyUrl (README "Notifications"). Signed like this:
 *   Checkout-Signature: t=<unix ms>,v1=<hex HMAC-SHA256(MERCHANT_NOTIFY_SECRET, "<t>.<raw body>")>
 * The merchant recomputes the HMAC over the raw body, compares in constant time, and refuses a
 * timestamp older than 5 minutes. A delivery succeeds on any 2xx; otherwise it is retried.
 */
export type NotificationEvent =
  | "checkout.paid"
  | "checkout.payment_failed"
  | "checkout.expired"
  | "checkout.duplicate_payment"
  | "refund.completed"
  | "refund.failed";

// Back-off after each failed delivery; after the last, the notification is given up (visible in
// the back office). About two days in all, like the provider's own webhooks.
export const RETRY_DELAYS_MS = [10_000, 60_000, 5 * 60_000, 30 * 60_000, 2 * 3600_000, 6 * 3600_000, 12 * 3600_000, 24 * 3600_000];

export function signNotification(secret: string, timestamp: string, rawBody: string): string {
  return `t=${timestamp},v1=${createHmac("sha256", secret).update(`${timestamp}.${rawBody}`).digest("hex")}`;
}

/** Queues a notification inside the caller's transaction, so it exists if and only if the change does. */
export async function enqueueNotification(
  tx: Tx,
  checkout: { id: string; notifyUrl: string | null; reference: string; amount: string; currency: string },
  event: NotificationEvent,
  data: Record<string, unknown> = {},
): Promise<void> {
  if (!checkout.notifyUrl) return;
  const id = `ntf_${randomUUID()}`;
  const payload = JSON.stringify({
    id,
    event,
    createdAt: new Date().toISOString(),
    checkout: { id: checkout.id, reference: checkout.reference, amount: checkout.amount, currency: checkout.currency },
    ...data,
  });
  await tx.insert(notifications).values({ id, checkoutId: checkout.id, event, url: checkout.notifyUrl, payload });
}

/** Delivers the notifications that are due; returns how many were delivered. */
export async function deliverDueNotifications(ctx: CheckoutContext, opts: { limit?: number; timeoutMs?: number } = {}): Promise<number> {
  const now = nowOf(ctx);
  const due = await ctx.db
    .select()
    .from(notifications)
    .where(and(isNull(notifications.deliveredAt), lte(notifications.nextAttemptAt, now)))
    .orderBy(asc(notifications.nextAttemptAt))
    .limit(opts.limit ?? 50);
  let delivered = 0;
  for (const n of due) {
    const timestamp = String(Date.now());
    let status: number | null = null;
    let error: string | null = null;
    try {
      const res = await fetch(n.url, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          "User-Agent": "bank-checkout-notifier/1",
          "Checkout-Event": n.event,
          "Checkout-Delivery-Id": n.id,
          "Checkout-Signature": signNotification(ctx.config.notifySecret, timestamp, n.payload),
        },
        body: n.payload,
        redirect: "manual",
        signal: AbortSignal.timeout(opts.timeoutMs ?? 10_000),
      });
      status = res.status;
      await res.body?.cancel();
    } catch (err) {
      error = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
    }
    const ok = status !== null && status >= 200 && status < 300;
    const attempts = n.attempts + 1;
    const delay = RETRY_DELAYS_MS[attempts - 1];
    await ctx.db
      .update(notifications)
      .set({
        attempts,
        lastStatus: status,
        lastError: ok ? null : (error ?? `HTTP ${status}`) + (delay === undefined ? " (gave up)" : ""),
        deliveredAt: ok ? new Date() : null,
        // Given up: parked far in the future rather than deleted, so the back office can show it.
        nextAttemptAt: ok ? n.nextAttemptAt : new Date(now.getTime() + (delay ?? 100 * 365 * 24 * 3600_000)),
      })
      .where(eq(notifications.id, n.id));
    if (ok) delivered++;
  }
  return delivered;
}
