import { createHash, randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { isUniqueViolation } from "../db/raw";
import { checkouts, refunds, type CheckoutRow, type RefundRow } from "../db/schema";
import { PisError } from "../pis";
import { committedMinor, loadCheckout, refundViewsOf, toRefundView } from "./checkouts";
import { nowOf, webhookUrl, type CheckoutContext, type Tx } from "./context";
import { amountInput, type RefundView } from "./contract";
import { CheckoutError, checkoutNotFound } from "./errors";
import { REFUND_CURRENCIES, amountProblem, fromMinor, normaliseAmount, toMinor } from "./money";
import { pollUntil } from "./poll";
import { projectInfo } from "./project";
import { validateIdempotencyKey, type IdempotencyOptions } from "./idempotency";
import { refundedAttempt } from "./attempts";
import { applyRefundStatus } from "./refund-status";
import { ATTEMPT_ID } from "./ids";

/** What a merchant sends to refund; an unknown field is refused (a misspelt `attemptId` would refund the wrong payment). */
export const createRefundInput = z.strictObject({
  amount: amountInput,
  reason: z.string().trim().max(200).optional(),
  /** The payment to refund: by default the one that paid; a duplicate payment's id to give it back. */
  attemptId: z.string().regex(ATTEMPT_ID, "is not a payment attempt id").optional(),
});
export type CreateRefundInput = z.infer<typeof createRefundInput>;

/** What is still refundable of one payment, in minor units. Failed refunds do not count. */
async function refundableOf(
  tx: Pick<Tx, "select">,
  attemptId: string,
  currency: string,
  paid: string,
): Promise<bigint> {
  const rows = await tx.select().from(refunds).where(eq(refunds.attemptId, attemptId));
  return toMinor(paid, currency) - committedMinor(rows, currency);
}

/** The amount asked for, checked and written with the currency's decimals ("10" is "10.00"). */
function refundAmount(asked: string, currency: string): string {
  const problem = amountProblem(asked, currency);
  if (problem)
    throw new CheckoutError("invalid_request", {
      detail: "The refund is not valid.",
      errors: [{ path: "amount", message: problem }],
    });
  return normaliseAmount(asked, currency);
}

/**
 * The payment a refund would go back through, if this checkout's can be refunded at all: the API
 * version, the status, the currency, what the project allows and its day limit.
 */
async function refundablePayment(c: CheckoutContext, checkout: CheckoutRow, attemptId: string | undefined) {
  if (!c.pis.profile.refunds) {
    throw new CheckoutError("refund_not_allowed", {
      detail: `Refunds exist from version v0.3 of the payment API; this shop uses ${c.pis.version} (PIS_API_VERSION).`,
    });
  }
  if (checkout.status !== "paid") throw new CheckoutError("not_paid");
  if (!REFUND_CURRENCIES.includes(checkout.currency)) {
    throw new CheckoutError("refund_currency", {
      detail: `Refunds are only possible in ${REFUND_CURRENCIES.join(" or ")}.`,
    });
  }
  const attempt = await refundedAttempt(c, checkout.id, attemptId);
  const paidBy = attempt.providerStatusKind === "card" ? "card" : "bank";
  const project = await projectInfo(c);
  if (!project.refunds.allowedFor.includes(paidBy)) {
    throw new CheckoutError("refund_not_allowed", {
      detail: `Refunds of ${paidBy} payments are not enabled for this shop.`,
    });
  }
  const dayLimit = paidBy === "card" ? project.refunds.cardDayLimit : project.refunds.bankDayLimit;
  const paidAt = attempt.completedAt ?? attempt.updatedAt;
  if (dayLimit !== null && nowOf(c).getTime() - paidAt.getTime() > dayLimit * 24 * 3600_000) {
    throw new CheckoutError("refund_too_late", { detail: `Payments can only be refunded within ${dayLimit} days.` });
  }
  return attempt;
}

/** Refuses an amount above what is left to refund of the payment (what earlier refunds left). */
async function leftCovers(
  db: Pick<Tx, "select">,
  attemptId: string,
  checkout: CheckoutRow,
  amount: string,
): Promise<void> {
  const left = await refundableOf(db, attemptId, checkout.currency, checkout.amount);
  if (toMinor(amount, checkout.currency) > left) {
    throw new CheckoutError("refund_exceeds_payment", {
      detail: `At most ${fromMinor(left, checkout.currency)} ${checkout.currency} can still be refunded.`,
      errors: [{ path: "amount", message: `must be at most ${fromMinor(left, checkout.currency)}` }],
    });
  }
}

/**
 * Checks that a refund could be made now, without making it: what a refund asked for under four
 * eyes must pass when asked, not only a week later when approved. Answers the normalised amount.
 */
export async function checkRefundable(
  c: CheckoutContext,
  checkoutId: string,
  input: Pick<CreateRefundInput, "amount" | "attemptId">,
): Promise<string> {
  const checkout = await loadCheckout(c, checkoutId);
  if (!checkout) throw checkoutNotFound();
  const amount = refundAmount(input.amount, checkout.currency);
  const attempt = await refundablePayment(c, checkout, input.attemptId);
  await leftCovers(c.db, attempt.id, checkout, amount);
  return amount;
}

/**
 * Refunds all or part of a paid checkout, or a duplicate payment of it. The refund row is written
 * under a lock on the checkout before the provider is asked, so two refunds at once cannot together
 * exceed what was paid. With an idempotency key (the merchant's Idempotency-Key, the back office
 * form's own key) a repeated request returns the first refund instead of refunding twice; the key
 * covers the normalised amount, so "10" and "10.00" are the same request.
 */
export async function createRefund(
  checkoutId: string,
  input: CreateRefundInput,
  by: string,
  c: CheckoutContext,
  opts: IdempotencyOptions & {
    /** A caller's own check, in the transaction that writes the refund, under its checkout's lock. */
    underLock?: (tx: Tx, amount: string) => Promise<void>;
  } = {},
): Promise<RefundView> {
  const checkout = await loadCheckout(c, checkoutId);
  if (!checkout) throw checkoutNotFound();
  const amount = refundAmount(input.amount, checkout.currency);
  const key = opts.idempotencyKey === undefined ? undefined : validateIdempotencyKey(opts.idempotencyKey);
  const requestHash = createHash("sha256")
    .update(JSON.stringify({ amount, reason: input.reason ?? null, attemptId: input.attemptId ?? null }))
    .digest("hex");
  if (key !== undefined) {
    const earlier = await refundByKey(c.db, checkoutId, key, requestHash);
    if (earlier) return replayed(await onceSent(c, earlier), opts.onReplay);
  }
  const attempt = await refundablePayment(c, checkout, input.attemptId);

  const id = `rf_${randomUUID()}`;
  const inserted = await c.db
    .transaction(async (tx) => {
      await tx.select({ id: checkouts.id }).from(checkouts).where(eq(checkouts.id, checkoutId)).for("update");
      // The same key may have been written while we waited for the lock: that refund is the answer,
      // before its amount is counted against ours.
      if (key !== undefined && (await refundByKey(tx, checkoutId, key, requestHash))) return false;
      await leftCovers(tx, attempt.id, checkout, amount);
      await opts.underLock?.(tx, amount);
      await tx.insert(refunds).values({
        id,
        checkoutId,
        attemptId: attempt.id,
        amount,
        currency: checkout.currency,
        reason: input.reason,
        createdBy: by,
        idempotencyKey: key,
        requestHash,
      });
      return true;
    })
    .catch((err: unknown) => {
      // The same key raced us (a double click sent to two instances): the first one stands.
      if (key !== undefined && isUniqueViolation(err)) return false;
      throw err;
    });
  if (!inserted)
    return replayed(await onceSent(c, (await refundByKey(c.db, checkoutId, key!, requestHash))!), opts.onReplay);

  try {
    const res = await c.pis.refunds.create(attempt.providerPaymentId!, { amount, webhookUrl: webhookUrl(c) });
    const refusedAtOnce = res.statusGroup === "failed";
    await c.db
      .update(refunds)
      .set({ providerRefundId: res.id, failureReason: refusedAtOnce ? "provider_failed" : null, updatedAt: new Date() })
      .where(eq(refunds.id, id));
    // Its status as its webhook's would be: a final one at once tells the merchant too.
    await applyRefundStatus(c, attempt.providerPaymentId!, res.id, res.statusGroup);
    // Failed in the answer itself: a refusal, as an HTTP one is (no money was returned).
    if (refusedAtOnce) throw refundRefused();
  } catch (err) {
    if (!(err instanceof PisError)) throw err;
    // An unknown outcome keeps the refund counted against the payment (never over-refund) until
    // reconciliation finds it in the provider's refund list (reconcileRefunds), and is answered as
    // the refund it may be, status "unknown": an error would invite a retry that refunds twice. The
    // merchant hears the outcome (refund.completed or refund.failed). A refusal frees the amount.
    await c.db
      .update(refunds)
      .set({
        statusGroup: err.outcomeUnknown ? null : "failed",
        failureReason: err.outcomeUnknown
          ? "outcome_unknown"
          : `provider_${err.httpStatus}_${err.providerName ?? err.code ?? "error"}`,
        updatedAt: new Date(),
      })
      .where(eq(refunds.id, id));
    if (!err.outcomeUnknown) throw refundRefused(err.description);
  }
  const [row] = await c.db.select().from(refunds).where(eq(refunds.id, id));
  return toRefundView(row!);
}

const refundRefused = (words?: string) =>
  new CheckoutError("refund_refused", {
    detail: `The payment service refused the refund${words ? `: ${words}` : "."}`,
  });

/**
 * A repeated request (same key) is answered as the first one was: a refund the provider refused
 * when it was asked (an HTTP refusal, or an answer already failed) is refused again. Answered as a
 * failed refund, a client that books any 2xx would book a refund that never happened.
 */
function replayed(row: RefundRow, onReplay?: () => void): RefundView {
  if (row.failureReason?.startsWith("provider_")) throw refundRefused();
  onReplay?.();
  return toRefundView(row);
}

/**
 * The refund a repeated request (same key) found, once the request that made it has had the
 * provider's answer: while that call is under way (no status and no outcome recorded yet) it is
 * waited for, as a repeated payment start is, rather than answered "unknown", which says the
 * provider's answer was lost. An instance that died mid-call leaves it so: after the wait, unknown.
 */
async function onceSent(c: CheckoutContext, row: RefundRow): Promise<RefundRow> {
  const sent = (r: RefundRow) => r.statusGroup !== null || r.failureReason !== null;
  if (sent(row)) return row;
  const read = async () => (await c.db.select().from(refunds).where(eq(refunds.id, row.id)))[0] ?? row;
  return pollUntil(read, sent, c.config.pisTimeoutMs + 1_000);
}

async function refundByKey(
  db: CheckoutContext["db"] | Tx,
  checkoutId: string,
  key: string,
  requestHash: string,
): Promise<RefundRow | undefined> {
  const [row] = await db
    .select()
    .from(refunds)
    .where(and(eq(refunds.checkoutId, checkoutId), eq(refunds.idempotencyKey, key)));
  if (row && row.requestHash !== requestHash) {
    throw new CheckoutError("idempotency_key_reused");
  }
  return row;
}

export async function listRefunds(checkoutId: string, c: CheckoutContext): Promise<RefundView[]> {
  if (!(await loadCheckout(c, checkoutId))) throw checkoutNotFound();
  return refundViewsOf(c, checkoutId);
}
