import { randomUUID } from "node:crypto";
import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import { isUniqueViolation, rowsOf } from "../db/raw";
import { checkouts, paymentAttempts, refunds, type CheckoutRow, type RefundRow } from "../db/schema";
import { PisError, type Refund } from "../pis";
import { nowOf, type CheckoutContext, type Tx } from "./context";
import { normaliseAmount, toMinor } from "./money";
import { refundTotalsOf } from "./checkouts";
import { enqueueNotification } from "./notifications";
import { canMoveAttempt } from "./status-machine";
import type { StatusGroup } from "./types";

/** Applies a refund webhook; "unknown" makes the provider retry (we may not have stored its id yet). */
export async function applyRefundStatus(
  ctx: CheckoutContext,
  paymentId: string,
  providerRefundId: number,
  group: StatusGroup,
): Promise<"applied" | "unchanged" | "unknown_refund"> {
  return ctx.db.transaction(async (tx) => {
    const [which] = await tx
      .select({ checkoutId: refunds.checkoutId })
      .from(refunds)
      .innerJoin(paymentAttempts, eq(refunds.attemptId, paymentAttempts.id))
      .where(and(eq(paymentAttempts.providerPaymentId, paymentId), eq(refunds.providerRefundId, providerRefundId)));
    if (!which) return "unknown_refund";
    // The checkout's lock, then the refund's (ADR 13's order): an outcome changes the checkout too.
    const [checkout] = await tx.select().from(checkouts).where(eq(checkouts.id, which.checkoutId)).for("update");
    const [refund] = await tx
      .select()
      .from(refunds)
      .where(and(eq(refunds.checkoutId, which.checkoutId), eq(refunds.providerRefundId, providerRefundId)))
      .for("update");
    if (!checkout || !refund) return "unknown_refund";
    if (!canMoveAttempt({ group: refund.statusGroup, code: null }, { group, code: null })) return "unchanged";
    await tx.update(refunds).set({ statusGroup: group, updatedAt: new Date() }).where(eq(refunds.id, refund.id));
    await tellOutcome(ctx, tx, checkout, refund, group);
    return "applied";
  });
}

/** A refund that reached a final status is told to the merchant, in the transaction that recorded it. */
async function tellOutcome(ctx: CheckoutContext, tx: Tx, checkout: CheckoutRow, refund: RefundRow, group: StatusGroup) {
  if (group !== "completed" && group !== "failed") return;
  await tellRefund(ctx, tx, checkout, refund, group === "completed" ? "refund.completed" : "refund.failed");
}

/**
 * A refund's notification, with what is refunded and refundable of its checkout now that it has its
 * outcome. The outcome is a change of the checkout too: among what changed that day (updatedFrom).
 */
async function tellRefund(
  ctx: CheckoutContext,
  tx: Tx,
  checkout: CheckoutRow,
  refund: RefundRow,
  event: "refund.completed" | "refund.failed",
) {
  await tx
    .update(checkouts)
    .set({ updatedAt: nowOf(ctx) })
    .where(eq(checkouts.id, checkout.id));
  if (!checkout.notifyUrl) return;
  const totals = await refundTotalsOf(tx, [checkout], ctx.pis.profile.refunds);
  await enqueueNotification(tx, checkout, event, {
    refund: { id: refund.id, amount: refund.amount, currency: refund.currency },
    refundTotals: totals.get(checkout.id),
  });
}

/**
 * A refund webhook whose refund no row of ours holds: one made at the provider, outside this shop
 * (its dashboard, another system with our credentials). The money has left the payment all the
 * same, so it is recorded (`createdBy` "provider", the amount from the provider's own refund list,
 * the webhook has none), counted against what can still be refunded, and told to the merchant.
 * Not while a refund of ours of the same amount is still waiting for its answer or for
 * reconciliation: that may be this very refund, and its id will be bound to our row; the delivery
 * is answered unknown and comes again. A provider that cannot list refunds now: "unconfirmed",
 * refused so it is delivered again.
 */
export async function recordRefundMadeElsewhere(
  ctx: CheckoutContext,
  paymentId: string,
  providerRefundId: number,
  group: StatusGroup,
): Promise<"applied" | "unchanged" | "unknown_refund" | "unconfirmed"> {
  const [attempt] = await ctx.db
    .select({ id: paymentAttempts.id, checkoutId: paymentAttempts.checkoutId })
    .from(paymentAttempts)
    .where(eq(paymentAttempts.providerPaymentId, paymentId));
  if (!attempt) return "unknown_refund";
  let listed: Refund | undefined;
  try {
    listed = (await ctx.pis.refunds.list(paymentId)).find((r) => r.id === providerRefundId);
  } catch (err) {
    if (!(err instanceof PisError)) throw err;
    return err.outcomeUnknown ? "unconfirmed" : "unknown_refund";
  }
  if (!listed) return "unknown_refund";
  const recorded = await ctx.db
    .transaction(async (tx) => {
      // The checkout's lock, as a refund of ours takes it to count what is left (ADR 13's order).
      const [checkout] = await tx.select().from(checkouts).where(eq(checkouts.id, attempt.checkoutId)).for("update");
      const amount = normaliseAmount(String(listed.amount), checkout!.currency);
      const held = await tx.select().from(refunds).where(eq(refunds.attemptId, attempt.id));
      if (held.some((r) => r.providerRefundId === providerRefundId)) return "known" as const;
      const minor = toMinor(amount, checkout!.currency);
      const maybeOurs = held.some(
        (r) => r.providerRefundId === null && r.statusGroup === null && toMinor(r.amount, r.currency) === minor,
      );
      if (maybeOurs) return "unknown_refund" as const;
      const [row] = await tx
        .insert(refunds)
        .values({
          id: `rf_${randomUUID()}`,
          checkoutId: checkout!.id,
          attemptId: attempt.id,
          providerRefundId,
          amount,
          currency: checkout!.currency,
          statusGroup: group,
          createdBy: "provider",
        })
        .returning();
      await tellOutcome(ctx, tx, checkout!, row!, group);
      return "applied" as const;
    })
    // The same delivery taken twice at once (or on two instances): the first one recorded it.
    .catch((err: unknown) => (isUniqueViolation(err) ? ("known" as const) : Promise.reject(err)));
  return recorded === "known" ? applyRefundStatus(ctx, paymentId, providerRefundId, group) : recorded;
}

/** A refund with no provider answer yet is left this long to its own request (client timeout + margin). */
const refundAnswerWindowMs = (ctx: CheckoutContext) => ctx.config.pisTimeoutMs + 15_000;

const REFUND_CHECK_LEASE_MS = 60_000;

/** How long to wait before asking the provider again about a refund of this age. */
const refundCheckDelay = (ageMs: number) =>
  ageMs < 3600_000 ? 60_000 : ageMs < 48 * 3600_000 ? 30 * 60_000 : 24 * 3600_000;

/**
 * Settles refunds from the provider's refund list (GET /pis/payment/{id}/refunds): one whose
 * request timed out is found there and bound to its row, or, absent from the list once no request
 * can still be on its way, marked failed so its amount is refundable again; one whose webhook never
 * came takes the listed status. Claimed per instance with SKIP LOCKED and a lease.
 */
export async function reconcileRefunds(ctx: CheckoutContext): Promise<number> {
  const now = nowOf(ctx);
  const claimed = await ctx.db.execute(sql`
    update ${refunds} set next_check_at = ${new Date(now.getTime() + REFUND_CHECK_LEASE_MS)}
    where id in (
      select id from ${refunds}
      where (status_group is null or status_group in ('started', 'pending'))
        and created_at <= ${new Date(now.getTime() - refundAnswerWindowMs(ctx))}
        and (next_check_at is null or next_check_at <= ${now})
      order by next_check_at nulls first
      limit 50
      for update skip locked
    )
    returning id`);
  const ids = rowsOf<{ id: string }>(claimed).map((r) => r.id);
  if (ids.length === 0) return 0;
  const rows = await ctx.db
    .select({ refund: refunds, paymentId: paymentAttempts.providerPaymentId })
    .from(refunds)
    .innerJoin(paymentAttempts, eq(refunds.attemptId, paymentAttempts.id))
    .where(inArray(refunds.id, ids))
    .orderBy(asc(refunds.createdAt));
  let settled = 0;
  for (const paymentId of new Set(rows.map((r) => r.paymentId))) {
    if (!paymentId) continue;
    let listed: Refund[];
    try {
      listed = await ctx.pis.refunds.list(paymentId);
    } catch (err) {
      if (err instanceof PisError) continue;
      throw err;
    }
    for (const { refund } of rows.filter((r) => r.paymentId === paymentId)) {
      if (await settleRefund(ctx, refund, paymentId, listed)) settled++;
      await ctx.db
        .update(refunds)
        .set({
          checkedAt: now,
          nextCheckAt: new Date(now.getTime() + refundCheckDelay(now.getTime() - refund.createdAt.getTime())),
        })
        .where(eq(refunds.id, refund.id));
    }
  }
  return settled;
}

async function settleRefund(
  ctx: CheckoutContext,
  refund: RefundRow,
  paymentId: string,
  listed: Refund[],
): Promise<boolean> {
  let providerRefundId = refund.providerRefundId;
  if (providerRefundId === null) {
    // Ours is a listed refund of the same amount that no other row of ours holds yet.
    const held = await ctx.db
      .select({
        id: refunds.id,
        providerRefundId: refunds.providerRefundId,
        statusGroup: refunds.statusGroup,
        amount: refunds.amount,
        createdAt: refunds.createdAt,
      })
      .from(refunds)
      .where(eq(refunds.attemptId, refund.attemptId));
    const taken = new Set(held.map((h) => h.providerRefundId));
    const sameAmount = (amount: string) => toMinor(amount, refund.currency) === toMinor(refund.amount, refund.currency);
    const match = listed.find((l) => !taken.has(l.id) && sameAmount(String(l.amount)));
    // A row of the same amount whose own request may still be on its way may be about to bind this
    // very refund: binding it to ours would leave theirs to fail on the unique index and the money
    // told to the wrong row. So we wait; the window is short, and after it the row has either bound
    // its refund or is unknown like ours, and the unknown ones take the unbound refunds oldest first.
    // The list is read after every row it can hold was written, so no such row can be missed.
    const inFlightSince = nowOf(ctx).getTime() - refundAnswerWindowMs(ctx);
    const inFlight = held.some(
      (h) =>
        h.id !== refund.id &&
        h.providerRefundId === null &&
        h.statusGroup === null &&
        h.createdAt.getTime() > inFlightSince &&
        sameAmount(h.amount),
    );
    if (match && inFlight) return false;
    if (!match) {
      // Never made at the provider: the amount is free again, and the merchant, whose request may
      // have got no answer, is told.
      await ctx.db.transaction(async (tx) => {
        // The checkout's lock first (ADR 13's order): the outcome changes it too.
        const [checkout] = await tx.select().from(checkouts).where(eq(checkouts.id, refund.checkoutId)).for("update");
        const [failed] = await tx
          .update(refunds)
          .set({ statusGroup: "failed", failureReason: "not_created_at_provider", updatedAt: new Date() })
          .where(and(eq(refunds.id, refund.id), isNull(refunds.providerRefundId), isNull(refunds.statusGroup)))
          .returning({ id: refunds.id });
        if (failed && checkout) await tellRefund(ctx, tx, checkout, refund, "refund.failed");
      });
      return true;
    }
    await ctx.db
      .update(refunds)
      .set({ providerRefundId: match.id, failureReason: null, updatedAt: new Date() })
      .where(and(eq(refunds.id, refund.id), isNull(refunds.providerRefundId)));
    providerRefundId = match.id;
  }
  const atProvider = listed.find((l) => l.id === providerRefundId);
  if (!atProvider) return false;
  return (await applyRefundStatus(ctx, paymentId, providerRefundId, atProvider.statusGroup)) === "applied";
}
