import { and, desc, eq, getTableColumns, inArray, isNull, ne, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { NormalisedStatus } from "../pis";
import {
  checkouts,
  notifications,
  paymentAttempts,
  statusEvents,
  type CheckoutRow,
  type AttemptRow,
  type StatusSource,
} from "../db/schema";
import type { CheckoutContext, Tx } from "./context";
import { notificationRow, type NotificationEvent } from "./notifications";
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
    // An attempt belongs to one provider payment: a different id is not this attempt's.
    if (bind && attempt.providerPaymentId !== null && attempt.providerPaymentId !== bind.providerPaymentId)
      return "unknown_attempt";
    const binding =
      bind && (attempt.providerPaymentId === null || (bind.confirmLink && attempt.confirmLink === null))
        ? { providerPaymentId: bind.providerPaymentId, confirmLink: bind.confirmLink ?? attempt.confirmLink }
        : undefined;
    const now = new Date();
    if (
      !canMoveAttempt(
        { group: attempt.statusGroup, code: attempt.providerStatus },
        { group: status.group, code: status.code },
      )
    ) {
      if (binding)
        await tx
          .update(paymentAttempts)
          .set({ ...binding, updatedAt: now })
          .where(eq(paymentAttempts.id, attempt.id));
      return bind && attempt.providerPaymentId === null ? "applied" : "unchanged";
    }
    const duplicate = status.group === "completed" && locked.paidByAnother;
    // The binding and the status in one write: no crash can leave one without the other.
    await tx
      .update(paymentAttempts)
      .set({
        ...binding,
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
      await recordAttemptChange(tx, checkout, attempt.id, status.code, source, {
        event: "checkout.duplicate_payment",
        data: { status: checkout.status, attemptId: attempt.id },
      });
      return "applied";
    }
    // The checkout follows its current attempt. An older or abandoned one still makes it paid if
    // it completes (the money moved), but its failure says nothing about the checkout.
    const next = checkoutStatusForAttempt(status.group);
    const moved =
      (locked.currentAttemptId === attempt.id || next === "paid") &&
      (await moveCheckout(tx, checkout, next, source, attempt.id, status.code));
    // The attempt changed even if the checkout did not: keep that in the history too.
    if (!moved) await recordAttemptChange(tx, checkout, attempt.id, status.code, source);
    return "applied";
  });
}

export interface LockedAttempt {
  checkout: CheckoutRow;
  attempt: AttemptRow;
  /** The checkout's newest attempt not stepped aside: the one its status follows. */
  currentAttemptId: string | null;
  /** Whether another attempt of the checkout already completed (and was not itself a duplicate). */
  paidByAnother: boolean;
}

/**
 * Locks one attempt and its checkout in the house order, the checkout row first, then the
 * attempt row, so that no two transactions on one checkout can wait on each other (ADR 13). Two
 * statements: the second runs under the checkout's lock, so what it reads of the other attempts
 * (all written under that lock) is current.
 */
export async function lockAttempt(tx: Tx, where: SQL): Promise<LockedAttempt | undefined> {
  const [checkout] = await tx
    .select()
    .from(checkouts)
    .where(inArray(checkouts.id, tx.select({ id: paymentAttempts.checkoutId }).from(paymentAttempts).where(where)))
    .for("update");
  if (!checkout) return undefined;
  const other = alias(paymentAttempts, "other");
  const ofThisCheckout = eq(other.checkoutId, checkout.id);
  const current = tx
    .select({ id: other.id })
    .from(other)
    .where(and(ofThisCheckout, isNull(other.abandonedAt)))
    .orderBy(desc(other.createdAt))
    .limit(1);
  const paying = tx
    .select({ id: other.id })
    .from(other)
    .where(
      and(
        ofThisCheckout,
        eq(other.statusGroup, "completed"),
        isNull(other.duplicateAt),
        ne(other.id, paymentAttempts.id),
      ),
    );
  const [found] = await tx
    .select({
      attempt: getTableColumns(paymentAttempts),
      currentAttemptId: sql<string | null>`(${current})`,
      paidByAnother: sql<boolean>`exists (${paying})`,
    })
    .from(paymentAttempts)
    .where(and(where, eq(paymentAttempts.checkoutId, checkout.id)))
    .for("update");
  if (!found) throw new Error(`checkout ${checkout.id} lost its attempt`);
  return { checkout, ...found };
}

/** What a status change tells the merchant, if its checkout has a notifyUrl. */
interface Notice {
  event: NotificationEvent;
  data: Record<string, unknown>;
}

/**
 * One statement: the history entry, the merchant's notification (queued in the outbox) and, when
 * given, the checkout's own move, written together.
 */
async function recordChange(
  tx: Tx,
  checkout: CheckoutRow,
  event: typeof statusEvents.$inferInsert,
  notice?: Notice,
  moveTo?: CheckoutStatus,
) {
  const row = notice && notificationRow(checkout, notice.event, notice.data);
  const writes = [
    ...(moveTo
      ? [
          tx
            .$with("moved")
            .as(
              tx
                .update(checkouts)
                .set({ status: moveTo, updatedAt: new Date() })
                .where(eq(checkouts.id, checkout.id))
                .returning({ id: checkouts.id }),
            ),
        ]
      : []),
    ...(row ? [tx.$with("notified").as(tx.insert(notifications).values(row).returning({ id: notifications.id }))] : []),
  ];
  await tx
    .with(...writes)
    .insert(statusEvents)
    .values(event);
}

function recordAttemptChange(
  tx: Tx,
  checkout: CheckoutRow,
  attemptId: string,
  providerStatus: string | null,
  source: StatusSource,
  notice?: Notice,
) {
  return recordChange(
    tx,
    checkout,
    {
      checkoutId: checkout.id,
      attemptId,
      fromStatus: checkout.status,
      toStatus: checkout.status,
      providerStatus,
      source,
    },
    notice,
  );
}

/**
 * Moves a checkout's own status if the status machine allows it, records the move with its
 * source, and queues the merchant's notification in the same statement.
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
  const event = EVENT_OF[to];
  await recordChange(
    tx,
    checkout,
    { checkoutId: checkout.id, attemptId, fromStatus: checkout.status, toStatus: to, source, providerStatus },
    event && { event, data: { status: to, ...(attemptId ? { attemptId } : {}) } },
    to,
  );
  return true;
}
