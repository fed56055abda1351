import { createHmac, randomUUID } from "node:crypto";
import { notifications } from "../db/schema";
import type { Tx } from "./context";
import type { MerchantNotification } from "./contract";
import type { NotificationEvent } from "./types";

/**
 * Notifications to the merchant's notifyUrl (README "Notifications"). Signed like this:
 *   Checkout-Signature: t=<unix ms>,v1=<hex HMAC-SHA256(MERCHANT_NOTIFY_SECRET, "<t>.<raw body>")>
 * `t` is in milliseconds, not Stripe's seconds, and taken when each delivery is sent (a retry is
 * signed anew). The merchant recomputes the HMAC over the raw body, compares in constant time, and
 * refuses a `t` more than 5 minutes from its clock either way (README "Notifications"). While a signing secret is being rolled (lib/api-keys), the header
 * carries one `v1=` per secret, and the merchant accepts the notification if any matches. A delivery succeeds on any 2xx; otherwise it is retried.
 */
export type { NotificationEvent };

// Back-off after each failed delivery; after the last, the notification is given up (visible in
// the back office). About two days in all, like the provider's own webhooks.
export const RETRY_DELAYS_MS = [
  10_000,
  60_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3600_000,
  6 * 3600_000,
  12 * 3600_000,
  24 * 3600_000,
];

/** The Checkout-Signature header: one `v1=` per secret, so a merchant rolling its secret checks either. */
export function signNotification(secrets: string | readonly string[], timestamp: string, rawBody: string): string {
  const all = typeof secrets === "string" ? [secrets] : secrets;
  const signatures = all.map((s) => `v1=${createHmac("sha256", s).update(`${timestamp}.${rawBody}`).digest("hex")}`);
  return [`t=${timestamp}`, ...signatures].join(",");
}

/** Queues a notification inside the caller's transaction, so it exists if and only if the change does. */
export async function enqueueNotification(
  tx: Tx,
  checkout: NotifiedCheckout,
  event: NotificationEvent,
  data: NotificationData = {},
): Promise<void> {
  const row = notificationRow(checkout, event, data);
  if (row) await tx.insert(notifications).values(row);
}

/** What an event adds to the notification's body; refundTotals go into its `checkout`. */
type NotificationData = Pick<MerchantNotification, "status" | "attemptId" | "refund"> & {
  refundTotals?: Pick<MerchantNotification["checkout"], "amountRefunded" | "amountRefundable">;
};

type NotifiedCheckout = {
  id: string;
  notifyUrl: string | null;
  reference: string;
  amount: string;
  currency: string;
  metadata: Record<string, string>;
  version: number;
};

/** The outbox row of one notification, or undefined when the checkout has no notifyUrl. */
export function notificationRow(
  checkout: NotifiedCheckout,
  event: NotificationEvent,
  { refundTotals, ...data }: NotificationData = {},
): typeof notifications.$inferInsert | undefined {
  if (!checkout.notifyUrl) return undefined;
  const id = `ntf_${randomUUID()}`;
  // Typed by the schema the OpenAPI document gives the merchant (its `webhooks`).
  const body: MerchantNotification = {
    id,
    event,
    createdAt: new Date().toISOString(),
    // The checkout's version as read by the write that makes the event: that write goes through
    // only while the version is still this one, and raises it, so a checkout's later status events
    // carry higher numbers whichever instance made them (createdAt is that instance's clock).
    sequence: checkout.version,
    checkout: {
      id: checkout.id,
      reference: checkout.reference,
      amount: checkout.amount,
      currency: checkout.currency,
      metadata: checkout.metadata,
      ...refundTotals,
    },
    ...data,
  };
  const payload = JSON.stringify(body);
  // Due from this millisecond on, by the same clock the outbox claims with (the database's now()
  // has microseconds, and would make it due up to 1 ms after a claim in the same millisecond).
  return { id, checkoutId: checkout.id, event, url: checkout.notifyUrl, payload, nextAttemptAt: new Date() };
}
