import { and, desc, eq, isNull } from "drizzle-orm";
import type { NormalisedStatus } from "../pis";
import { checkouts, paymentAttempts, statusEvents, type StatusSource } from "../db/schema";
import type { CheckoutContext } from "./context";
import { enqueueNotification, type NotificationEvent } from "./notifications";
import { canMoveAttempt, canMoveCheckout, checkoutStatusForAttempt } from "./status-machine";
import type { CheckoutStatus } from "./types";

export type Tx = Parameters<Parameters<CheckoutContext["db"]["transaction"]>[0]>[0];
type CheckoutRow = typeof checkouts.$inferSelect;

export type ApplyOutcome = "applied" | "unchanged" | "unknown_attempt";

const EVENT_OF: Partial<Record<CheckoutStatus, NotificationEvent>> = {
  paid: "checkout.paid",
  failed: "checkout.payment_failed",
  expired: "checkout.expired",
};

/**
 * Applies a provider status to one attempt and its checkout, in one transaction with the attempt
 * row locked, so a webhook and a landing-page refresh arriving together cannot interleave.
 */
export async function applyProviderStatus(
  ctx: CheckoutContext,
  target: { attemptId: string } | { providerPaymentId: string },
  status: Pick<NormalisedStatus, "group" | "code" | "kind" | "errorCodes">,
  source: StatusSource,
): Promise<ApplyOutcome> {
  return ctx.db.transaction(async (tx) => {
    const where =
      "attemptId" in target ? eq(paymentAttempts.id, target.attemptId) : eq(paymentAttempts.providerPaymentId, target.providerPaymentId);
    const [attempt] = await tx.select().from(paymentAttempts).where(where).for("update");
    if (!attempt) return "unknown_attempt";
    if (!canMoveAttempt({ group: attempt.statusGroup, code: attempt.providerStatus }, { group: status.group, code: status.code })) {
      return "unchanged";
    }
    const now = new Date();
    await tx
      .update(paymentAttempts)
      .set({
        statusGroup: status.group,
        providerStatus: status.code,
        providerStatusKind: status.kind,
        errorCodes: status.errorCodes.length > 0 ? status.errorCodes : attempt.errorCodes,
        completedAt: status.group === "completed" ? now : attempt.completedAt,
        updatedAt: now,
      })
      .where(eq(paymentAttempts.id, attempt.id));

    const [checkout] = await tx.select().from(checkouts).where(eq(checkouts.id, attempt.checkoutId)).for("update");
    if (!checkout) throw new Error(`attempt ${attempt.id} has no checkout`);
    // The checkout follows its current attempt. An older or abandoned one still makes it paid if
    // it completes (the money moved), but its failure says nothing about the checkout.
    const [current] = await tx
      .select({ id: paymentAttempts.id })
      .from(paymentAttempts)
      .where(and(eq(paymentAttempts.checkoutId, checkout.id), isNull(paymentAttempts.abandonedAt)))
      .orderBy(desc(paymentAttempts.createdAt))
      .limit(1);
    const next = checkoutStatusForAttempt(status.group);
    const moved = (current?.id === attempt.id || next === "paid") && (await moveCheckout(tx, checkout, next, source, attempt.id, status.code));
    if (!moved) {
      // The attempt changed even if the checkout did not: keep that in the history too.
      await tx.insert(statusEvents).values({
        checkoutId: checkout.id,
        attemptId: attempt.id,
        fromStatus: checkout.status,
        toStatus: checkout.status,
        providerStatus: status.code,
        source,
      });
    }
    return "applied";
  });
}

/**
 * Moves a checkout's own status if the status machine allows it, records the move with its
 * source, and queues the merchant's notification in the same transaction.
 */
export async function moveCheckout(
  tx: Tx,
  checkout: CheckoutRow,
  to: CheckoutStatus,
  source: StatusSource,
  attemptId?: string,
  providerStatus?: string | null,
): Promise<boolean> {
  if (checkout.status === to || !canMoveCheckout(checkout.status, to)) return false;
  await tx.update(checkouts).set({ status: to, updatedAt: new Date() }).where(eq(checkouts.id, checkout.id));
  await tx.insert(statusEvents).values({ checkoutId: checkout.id, attemptId, fromStatus: checkout.status, toStatus: to, source, providerStatus });
  const event = EVENT_OF[to];
  if (event) await enqueueNotification(tx, checkout, event, { status: to, ...(attemptId ? { attemptId } : {}) });
  return true;
}
