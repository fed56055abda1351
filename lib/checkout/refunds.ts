import { createHash, randomUUID } from "node:crypto";
import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import { isUniqueViolation, rowsOf } from "../db/raw";
import { checkouts, paymentAttempts, refunds } from "../db/schema";
import { PisError, type Refund } from "../pis";
import { loadCheckout } from "./checkouts";
import { nowOf, webhookUrl, type CheckoutContext, type Tx } from "./context";
import type { RefundView } from "./contract";
import { CheckoutError, checkoutNotFound } from "./errors";
import { REFUND_CURRENCIES, amountProblem, fromMinor, normaliseAmount, toMinor } from "./money";
import { enqueueNotification } from "./notifications";
import { projectInfo } from "./project";
import { canMoveAttempt } from "./status-machine";
import type { StatusGroup } from "./types";

export const createRefundInput = z.object({
  amount: z.string(),
  reason: z.string().trim().max(200).optional(),
  /** The payment to refund: by default the one that paid; a duplicate payment's id to give it back. */
  attemptId: z.string().regex(/^pa_[0-9a-f-]{36}$/, "is not a payment attempt id").optional(),
});
export type CreateRefundInput = z.infer<typeof createRefundInput>;

type RefundRow = typeof refunds.$inferSelect;
type AttemptRow = typeof paymentAttempts.$inferSelect;


const toView = (r: RefundRow): RefundView => ({
  id: r.id,
  attemptId: r.attemptId,
  amount: r.amount,
  currency: r.currency,
  status: r.statusGroup ?? "unknown",
  reason: r.reason,
  createdBy: r.createdBy,
  createdAt: r.createdAt.toISOString(),
});

/** What is still refundable of one payment, in minor units. Failed refunds do not count. */
async function refundableOf(tx: Tx, attemptId: string, currency: string, paid: string): Promise<bigint> {
  const rows = await tx.select().from(refunds).where(eq(refunds.attemptId, attemptId));
  const committed = rows.filter((r) => r.statusGroup !== "failed").reduce((sum, r) => sum + toMinor(r.amount, currency), 0n);
  return toMinor(paid, currency) - committed;
}

export function validateIdempotencyKey(key: string): string {
  if (!/^[\x21-\x7e]{1,255}$/.test(key)) {
    throw new CheckoutError("invalid_request", { detail: "The Idempotency-Key header is not valid.", errors: [
      { path: "Idempotency-Key", message: "must be 1-255 printable ASCII characters" },
    ] });
  }
  return key;
}

/**
 * Refunds all or part of a paid checkout, or a duplicate payment of it. The refund row is written
 * under a lock on the checkout before the provider is asked, so two refunds at once cannot together
 * exceed what was paid. With an idempotency key (the merchant's Idempotency-Key, the back office
 * form's own key) a repeated request returns the first refund instead of refunding twice; the key
 * covers the normalised amount, so "10" and "10.00" are the same request.
 */
export async function createRefund(checkoutId: string, input: CreateRefundInput, by: string, c: CheckoutContext, opts: { idempotencyKey?: string } = {}): Promise<RefundView> {
  const checkout = await loadCheckout(c, checkoutId);
  if (!checkout) throw checkoutNotFound();
  const problem = amountProblem(input.amount, checkout.currency);
  if (problem) throw new CheckoutError("invalid_request", { detail: "The refund is not valid.", errors: [{ path: "amount", message: problem }] });
  const amount = normaliseAmount(input.amount, checkout.currency);
  const key = opts.idempotencyKey === undefined ? undefined : validateIdempotencyKey(opts.idempotencyKey);
  const requestHash = createHash("sha256").update(JSON.stringify({ amount, reason: input.reason ?? null, attemptId: input.attemptId ?? null })).digest("hex");
  if (key !== undefined) {
    const earlier = await refundByKey(c.db, checkoutId, key, requestHash);
    if (earlier) return toView(earlier);
  }
  if (checkout.status !== "paid") throw new CheckoutError("not_paid");
  if (!REFUND_CURRENCIES.includes(checkout.currency)) {
    throw new CheckoutError("refund_currency", { detail: `Refunds are only possible in ${REFUND_CURRENCIES.join(" or ")}.` });
  }
  const attempt = await refundedAttempt(c, checkoutId, input.attemptId);
  const paidBy = attempt.providerStatusKind === "card" ? "card" : "bank";
  const project = await projectInfo(c);
  if (!project.refunds.allowedFor.includes(paidBy)) {
    throw new CheckoutError("refund_not_allowed", { detail: `Refunds of ${paidBy} payments are not enabled for this shop.` });
  }
  const dayLimit = paidBy === "card" ? project.refunds.cardDayLimit : project.refunds.bankDayLimit;
  const paidAt = attempt.completedAt ?? attempt.updatedAt;
  if (dayLimit !== null && nowOf(c).getTime() - paidAt.getTime() > dayLimit * 24 * 3600_000) {
    throw new CheckoutError("refund_too_late", { detail: `Payments can only be refunded within ${dayLimit} days.` });
  }

  const id = `rf_${randomUUID()}`;
  const inserted = await c.db
    .transaction(async (tx) => {
      await tx.select({ id: checkouts.id }).from(checkouts).where(eq(checkouts.id, checkoutId)).for("update");
      // The same key may have been written while we waited for the lock: that refund is the answer,
      // before its amount is counted against ours.
      if (key !== undefined && (await refundByKey(tx, checkoutId, key, requestHash))) return false;
      const left = await refundableOf(tx, attempt.id, checkout.currency, checkout.amount);
      if (toMinor(amount, checkout.currency) > left) {
        throw new CheckoutError("refund_exceeds_payment", { detail: `At most ${fromMinor(left, checkout.currency)} ${checkout.currency} can still be refunded.`, errors: [
          { path: "amount", message: `must be at most ${fromMinor(left, checkout.currency)}` },
        ] });
      }
      await tx.insert(refunds).values({ id, checkoutId, attemptId: attempt.id, amount, currency: checkout.currency, reason: input.reason, createdBy: by, idempotencyKey: key, requestHash });
      return true;
    })
    .catch((err: unknown) => {
      // The same key raced us (a double click sent to two instances): the first one stands.
      if (key !== undefined && isUniqueViolation(err)) return false;
      throw err;
    });
  if (!inserted) return toView((await refundByKey(c.db, checkoutId, key!, requestHash))!);

  try {
    const res = await c.pis.refunds.create(attempt.providerPaymentId!, { amount, webhookUrl: webhookUrl(c) });
    await c.db.update(refunds).set({ providerRefundId: res.id, statusGroup: res.statusGroup, updatedAt: new Date() }).where(eq(refunds.id, id));
  } catch (err) {
    if (!(err instanceof PisError)) throw err;
    // An unknown outcome keeps the refund counted against the payment (never over-refund) until
    // reconciliation finds it in the provider's refund list (reconcileRefunds); a refusal frees the amount.
    await c.db
      .update(refunds)
      .set({ statusGroup: err.outcomeUnknown ? null : "failed", failureReason: err.outcomeUnknown ? "outcome_unknown" : `provider_${err.httpStatus}_${err.providerName ?? err.code ?? "error"}`, updatedAt: new Date() })
      .where(eq(refunds.id, id));
    throw new CheckoutError("provider_error", { detail: err.outcomeUnknown ? "The payment service did not answer; check the refund's status before trying again." : `The payment service refused the refund${err.description ? `: ${err.description}` : "."}` });
  }
  const [row] = await c.db.select().from(refunds).where(eq(refunds.id, id));
  return toView(row!);
}

async function refundByKey(db: CheckoutContext["db"] | Tx, checkoutId: string, key: string, requestHash: string): Promise<RefundRow | undefined> {
  const [row] = await db.select().from(refunds).where(and(eq(refunds.checkoutId, checkoutId), eq(refunds.idempotencyKey, key)));
  if (row && row.requestHash !== requestHash) {
    throw new CheckoutError("idempotency_key_reused");
  }
  return row;
}

/** The payment a refund gives money back from: the named one (paying or duplicate), else the paying one. */
async function refundedAttempt(c: CheckoutContext, checkoutId: string, attemptId: string | undefined): Promise<AttemptRow> {
  const [attempt] = await c.db
    .select()
    .from(paymentAttempts)
    .where(
      and(
        eq(paymentAttempts.checkoutId, checkoutId),
        eq(paymentAttempts.statusGroup, "completed"),
        attemptId === undefined ? isNull(paymentAttempts.duplicateAt) : eq(paymentAttempts.id, attemptId),
      ),
    )
    .orderBy(asc(paymentAttempts.completedAt))
    .limit(1);
  if (!attempt?.providerPaymentId) {
    throw new CheckoutError("not_paid", { detail: attemptId === undefined ? "Only a paid checkout can be refunded." : "Only a completed payment of this checkout can be refunded.", errors: attemptId === undefined ? undefined : [{ path: "attemptId", message: "is not a completed payment of this checkout" }] });
  }
  return attempt;
}

export async function listRefunds(checkoutId: string, c: CheckoutContext): Promise<RefundView[]> {
  if (!(await loadCheckout(c, checkoutId))) throw checkoutNotFound();
  const rows = await c.db.select().from(refunds).where(eq(refunds.checkoutId, checkoutId)).orderBy(asc(refunds.createdAt));
  return rows.map(toView);
}

/** Applies a refund webhook; "unknown" makes the provider retry (we may not have stored its id yet). */
export async function applyRefundStatus(ctx: CheckoutContext, paymentId: string, providerRefundId: number, group: StatusGroup): Promise<"applied" | "unchanged" | "unknown_refund"> {
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
const refundCheckDelay = (ageMs: number) => (ageMs < 3600_000 ? 60_000 : ageMs < 48 * 3600_000 ? 30 * 60_000 : 24 * 3600_000);

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
        .set({ checkedAt: now, nextCheckAt: new Date(now.getTime() + refundCheckDelay(now.getTime() - refund.createdAt.getTime())) })
        .where(eq(refunds.id, refund.id));
    }
  }
  return settled;
}

async function settleRefund(ctx: CheckoutContext, refund: RefundRow, paymentId: string, listed: Refund[]): Promise<boolean> {
  let providerRefundId = refund.providerRefundId;
  if (providerRefundId === null) {
    // Ours is a listed refund of the same amount that no other row of ours holds yet.
    const held = await ctx.db.select({ id: refunds.providerRefundId }).from(refunds).where(eq(refunds.attemptId, refund.attemptId));
    const taken = new Set(held.map((h) => h.id));
    const match = listed.find((l) => !taken.has(l.id) && toMinor(String(l.amount), refund.currency) === toMinor(refund.amount, refund.currency));
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
        if (checkout) await enqueueNotification(tx, checkout, "refund.failed", { refund: { id: refund.id, amount: refund.amount, currency: refund.currency } });
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
