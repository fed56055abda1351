import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import { rowsOf } from "../db/raw";
import { checkouts, paymentAttempts, refunds, type RefundRow } from "../db/schema";
import { PisError, type Refund } from "../pis";
import { nowOf, type CheckoutContext } from "./context";
import { toMinor } from "./money";
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
    const [found] = await tx
      .select({ refund: refunds, checkout: checkouts })
      .from(refunds)
      .innerJoin(paymentAttempts, eq(refunds.attemptId, paymentAttempts.id))
      .innerJoin(checkouts, eq(refunds.checkoutId, checkouts.id))
      .where(and(eq(paymentAttempts.providerPaymentId, paymentId), eq(refunds.providerRefundId, providerRefundId)))
      .for("update", { of: refunds });
    if (!found) return "unknown_refund";
    if (!canMoveAttempt({ group: found.refund.statusGroup, code: null }, { group, code: null })) return "unchanged";
    await tx.update(refunds).set({ statusGroup: group, updatedAt: new Date() }).where(eq(refunds.id, found.refund.id));
    if (group === "completed" || group === "failed") {
      await enqueueNotification(tx, found.checkout, group === "completed" ? "refund.completed" : "refund.failed", {
        refund: { id: found.refund.id, amount: found.refund.amount, currency: found.refund.currency },
      });
    }
    return "applied";
  });
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
        const [failed] = await tx
          .update(refunds)
          .set({ statusGroup: "failed", failureReason: "not_created_at_provider", updatedAt: new Date() })
          .where(and(eq(refunds.id, refund.id), isNull(refunds.providerRefundId), isNull(refunds.statusGroup)))
          .returning({ id: refunds.id });
        const [checkout] = failed ? await tx.select().from(checkouts).where(eq(checkouts.id, refund.checkoutId)) : [];
        if (checkout)
          await enqueueNotification(tx, checkout, "refund.failed", {
            refund: { id: refund.id, amount: refund.amount, currency: refund.currency },
          });
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
