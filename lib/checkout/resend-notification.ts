import { and, eq, gt, isNull } from "drizzle-orm";
import { notifications } from "../db/schema";
import { nowOf, type CheckoutContext } from "./context";
import { RETRY_DELAYS_MS } from "./notifications";

/**
 * What sending a notification again did: `queued` it is back in the outbox; `delivered` the
 * merchant already has it; `in_delivery` it was not given up (still being tried, or put back a
 * moment ago by someone else); `not_found` no such notification of that checkout.
 */
export type ResendOutcome = "queued" | "delivered" | "in_delivery" | "not_found";

/** Given up: the outbox tried it after every back-off and stopped (`deliverOne`). */
export const givenUp = (n: { deliveredAt: Date | null; attempts: number }) =>
  n.deliveredAt === null && n.attempts > RETRY_DELAYS_MS.length;

/**
 * Staff put a notification the outbox gave up on back into delivery (the merchant fixed its
 * endpoint). One guarded UPDATE and nothing in memory: of two staff, or two instances, at once
 * exactly one puts it back, and a crash right after leaves a row the outbox of any instance sends.
 *
 * It is due at once with its attempts back at 0, so the usual back-off runs again (about two days)
 * if the merchant still fails. Counted from 0 it also holds back the later notifications of its
 * checkout that have not gone out yet, as the claim orders one checkout's deliveries, so the
 * merchant hears it before them. The id and body stay the same: a merchant that did get it after
 * all drops the repeat by its id (README "Notifications to the merchant").
 */
export async function resendNotification(
  checkoutId: string,
  notificationId: string,
  ctx: CheckoutContext,
): Promise<ResendOutcome> {
  const [put] = await ctx.db
    .update(notifications)
    // The lease is cleared too: a late result of an instance that lost it must not land now.
    .set({ attempts: 0, nextAttemptAt: nowOf(ctx), lockedUntil: null })
    .where(
      and(
        eq(notifications.id, notificationId),
        eq(notifications.checkoutId, checkoutId),
        isNull(notifications.deliveredAt),
        gt(notifications.attempts, RETRY_DELAYS_MS.length),
      ),
    )
    .returning({ id: notifications.id });
  if (put) return "queued";
  const [row] = await ctx.db
    .select({ deliveredAt: notifications.deliveredAt })
    .from(notifications)
    .where(and(eq(notifications.id, notificationId), eq(notifications.checkoutId, checkoutId)));
  if (!row) return "not_found";
  return row.deliveredAt ? "delivered" : "in_delivery";
}
