import { and, desc, eq, isNull, ne, type SQL } from "drizzle-orm";
import type { NormalisedStatus } from "../pis";
import {
  checkouts,
  paymentAttempts,
  statusEvents,
  type CheckoutRow,
  type AttemptRow,
  type StatusSource,
} from "../db/schema";
import type { CheckoutContext, Tx } from "./context";
import { enqueueNotification, type NotificationEvent } from "./notifications";
import { canMoveAttempt, canMoveCheckout, checkoutStatusForAttempt } from "./status-machine";
import type { CheckoutStatus } from "./types";

export type ApplyOutcome = "applied" | "unchanged" | "unknown_attempt";

const EVENT_OF: Partial<Record<CheckoutStatus, NotificationEvent>> = {
  paid: "checkout.paid",
  failed: "checkout.payment_failed",
  expired: "checkout.expired",
};

/** Which attempt a provider status is for; `bind` also records the provider's payment id on it. */
export type StatusTarget =
  { providerPaymentId: string } | { attemptId: string; bind?: { providerPaymentId: string; confirmLink?: string } };

/**
 * Applies a provider status to one attempt and its checkout, in one transaction. Locks are taken
 * in one order everywhere, the checkout row and then the attempt row, so a webhook, a payment
 * start and a landing-page refresh arriving together wait for each other instead of deadlocking.
 * A completion while another attempt already paid the checkout is recorded as a duplicate payment
 * and reported to the merchant, never dropped (ADR 13).
 */
export async function applyProviderStatus(
  ctx: CheckoutContext,
  target: StatusTarget,
  status: Pick<NormalisedStatus, "group" | "code" | "kind" | "errorCodes">,
  source: StatusSource,
): Promise<ApplyOutcome> {
  return ctx.db.transaction(async (tx) => {
    const locked = await lockAttempt(
      tx,
      "attemptId" in target
        ? eq(paymentAttempts.id, target.attemptId)
        : eq(paymentAttempts.providerPaymentId, target.providerPaymentId),
    );
    if (!locked) return "unknown_attempt";
    const { checkout, attempt } = locked;

    const bind = "attemptId" in target ? target.bind : undefined;
    if (bind) {
      // An attempt belongs to one provider payment: a different id is not this attempt's.
      if (attempt.providerPaymentId !== null && attempt.providerPaymentId !== bind.providerPaymentId)
        return "unknown_attempt";
      if (attempt.providerPaymentId === null || (bind.confirmLink && attempt.confirmLink === null)) {
        await tx
          .update(paymentAttempts)
          .set({
            providerPaymentId: bind.providerPaymentId,
            confirmLink: bind.confirmLink ?? attempt.confirmLink,
            updatedAt: new Date(),
          })
          .where(eq(paymentAttempts.id, attempt.id));
      }
    }
    if (
      !canMoveAttempt(
        { group: attempt.statusGroup, code: attempt.providerStatus },
        { group: status.group, code: status.code },
      )
    ) {
      return bind && attempt.providerPaymentId === null ? "applied" : "unchanged";
    }
    const now = new Date();
    const duplicate = status.group === "completed" && (await paidByAnother(tx, checkout.id, attempt.id));
    await tx
      .update(paymentAttempts)
      .set({
        statusGroup: status.group,
        providerStatus: status.code,
        providerStatusKind: status.kind,
        errorCodes: status.errorCodes.length > 0 ? status.errorCodes : attempt.errorCodes,
        completedAt: status.group === "completed" ? now : attempt.completedAt,
        duplicateAt: duplicate ? now : attempt.duplicateAt,
        updatedAt: now,
      })
      .where(eq(paymentAttempts.id, attempt.id));

    if (duplicate) {
      await recordAttemptChange(tx, checkout, attempt.id, status.code, source);
      await enqueueNotification(tx, checkout, "checkout.duplicate_payment", {
        status: checkout.status,
        attemptId: attempt.id,
      });
      return "applied";
    }
    // The checkout follows its current attempt. An older or abandoned one still makes it paid if
    // it completes (the money moved), but its failure says nothing about the checkout.
    const [current] = await tx
      .select({ id: paymentAttempts.id })
      .from(paymentAttempts)
      .where(and(eq(paymentAttempts.checkoutId, checkout.id), isNull(paymentAttempts.abandonedAt)))
      .orderBy(desc(paymentAttempts.createdAt))
      .limit(1);
    const next = checkoutStatusForAttempt(status.group);
    const moved =
      (current?.id === attempt.id || next === "paid") &&
      (await moveCheckout(tx, checkout, next, source, attempt.id, status.code));
    // The attempt changed even if the checkout did not: keep that in the history too.
    if (!moved) await recordAttemptChange(tx, checkout, attempt.id, status.code, source);
    return "applied";
  });
}

/**
 * Locks one attempt and its checkout in the house order, the checkout row first, then the
 * attempt row, so that no two transactions on one checkout can wait on each other (ADR 13).
 */
export async function lockAttempt(
  tx: Tx,
  where: SQL,
): Promise<{ checkout: CheckoutRow; attempt: AttemptRow } | undefined> {
  const [found] = await tx
    .select({ id: paymentAttempts.id, checkoutId: paymentAttempts.checkoutId })
    .from(paymentAttempts)
    .where(where);
  if (!found) return undefined;
  const [checkout] = await tx.select().from(checkouts).where(eq(checkouts.id, found.checkoutId)).for("update");
  const [attempt] = await tx.select().from(paymentAttempts).where(eq(paymentAttempts.id, found.id)).for("update");
  if (!checkout || !attempt) throw new Error(`attempt ${found.id} has no checkout`);
  return { checkout, attempt };
}

async function paidByAnother(tx: Tx, checkoutId: string, attemptId: string): Promise<boolean> {
  const [paying] = await tx
    .select({ id: paymentAttempts.id })
    .from(paymentAttempts)
    .where(
      and(
        eq(paymentAttempts.checkoutId, checkoutId),
        eq(paymentAttempts.statusGroup, "completed"),
        isNull(paymentAttempts.duplicateAt),
        ne(paymentAttempts.id, attemptId),
      ),
    )
    .limit(1);
  return paying !== undefined;
}

function recordAttemptChange(
  tx: Tx,
  checkout: CheckoutRow,
  attemptId: string,
  providerStatus: string | null,
  source: StatusSource,
) {
  return tx.insert(statusEvents).values({
    checkoutId: checkout.id,
    attemptId,
    fromStatus: checkout.status,
    toStatus: checkout.status,
    providerStatus,
    source,
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
  await tx
    .insert(statusEvents)
    .values({ checkoutId: checkout.id, attemptId, fromStatus: checkout.status, toStatus: to, source, providerStatus });
  const event = EVENT_OF[to];
  if (event) await enqueueNotification(tx, checkout, event, { status: to, ...(attemptId ? { attemptId } : {}) });
  return true;
}
