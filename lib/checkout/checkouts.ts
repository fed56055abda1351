import { and, asc, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import { prepared } from "../db/prepared";
import {
  checkouts,
  paymentAttempts,
  refunds,
  statusEvents,
  type AttemptRow,
  type CheckoutRow,
  type RefundRow,
} from "../db/schema";
import { failureReasonOf as paymentFailureReason } from "../pis";
import { expireIfDue } from "./apply-status";
import { nowOf, type CheckoutContext, type Tx } from "./context";
import type { Db } from "../db/client";
import { CheckoutError, checkoutNotFound } from "./errors";
import { isCheckoutId } from "./ids";
import { REFUND_CURRENCIES, fromMinor, toMinor } from "./money";
import type { AttemptView, CheckoutDetail, CheckoutView, FailureReason, RefundView } from "./contract";

export function toCheckoutView(row: CheckoutRow): CheckoutView {
  return {
    id: row.id,
    amount: row.amount,
    currency: row.currency,
    description: row.description,
    reference: row.reference,
    metadata: row.metadata,
    lineItems: row.lineItems,
    status: row.status,
    creditorName: row.creditorName,
    country: row.country,
    locale: row.locale,
    returnUrl: row.returnUrl,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
  };
}

export function toAttemptView(row: AttemptRow): AttemptView {
  return {
    id: row.id,
    method: row.method,
    bankId: row.bankId,
    statusGroup: row.statusGroup,
    providerStatus: row.providerStatus,
    abandoned: row.abandonedAt !== null,
    duplicate: row.duplicateAt !== null,
    createdAt: row.createdAt.toISOString(),
  };
}

export function toRefundView(r: RefundRow): RefundView {
  return {
    id: r.id,
    attemptId: r.attemptId,
    amount: r.amount,
    currency: r.currency,
    status: r.statusGroup ?? "unknown",
    reason: r.reason,
    createdBy: r.createdBy,
    createdAt: r.createdAt.toISOString(),
  };
}

export async function getCheckout(id: string, c: CheckoutContext): Promise<CheckoutView | null> {
  const row = await loadCheckout(c, id);
  return row ? toCheckoutView(row) : null;
}

const checkoutById = prepared((db) =>
  db
    .select()
    .from(checkouts)
    .where(eq(checkouts.id, sql.placeholder("id")))
    .prepare("checkout_by_id"),
);

export async function loadCheckout(ctx: CheckoutContext, id: string): Promise<CheckoutRow | undefined> {
  if (!isCheckoutId(id)) return undefined;
  const [row] = await checkoutById(ctx.db).execute({ id });
  return row;
}

const checkoutAndLatest = prepared((db) =>
  db
    .select({ checkout: checkouts, attempt: paymentAttempts })
    .from(checkouts)
    .leftJoin(
      paymentAttempts,
      eq(
        paymentAttempts.id,
        sql`(select pa.id from payment_attempts pa where pa.checkout_id = ${checkouts.id}
          order by pa.status_group = 'completed' and pa.duplicate_at is null desc,
            pa.abandoned_at is null and (pa.status_group is null or pa.status_group in ('started', 'pending')) desc,
            pa.abandoned_at is null and ${checkouts.status} = 'failed' desc,
            pa.created_at desc
          limit 1)`,
      ),
    )
    .where(eq(checkouts.id, sql.placeholder("id")))
    .prepare("checkout_and_latest_attempt"),
);

/**
 * The checkout and the attempt that explains its status, in one statement (the landing page's
 * poll): the one that paid it, else the one under way, else for a failed checkout the one that
 * failed it (the newest not set aside), else the newest. Normally the newest; not when a payment
 * the payer had stopped was approved after a newer one (ADR 8).
 */
export async function checkoutWithLatestAttempt(
  ctx: CheckoutContext,
  id: string,
): Promise<{ checkout?: CheckoutRow; attempt?: AttemptRow }> {
  if (!isCheckoutId(id)) return {};
  const [row] = await checkoutAndLatest(ctx.db).execute({ id });
  return { checkout: row?.checkout, attempt: row?.attempt ?? undefined };
}

/** Why the attempt failed, for the payer: lib/pis reads the provider's codes; a start that never reached the bank is ours. */
export function failureReasonOf(a: Pick<AttemptRow, "errorCodes" | "providerStatus" | "failureReason">): FailureReason {
  const reason = paymentFailureReason({ code: a.providerStatus, errorCodes: a.errorCodes ?? [] });
  return reason === "unknown" && a.failureReason ? "provider_error" : reason;
}

// The merchant's view is what a merchant's backend polls.
const attemptsOf = prepared((db) =>
  db
    .select()
    .from(paymentAttempts)
    .where(eq(paymentAttempts.checkoutId, sql.placeholder("id")))
    .orderBy(desc(paymentAttempts.createdAt))
    .prepare("attempts_of_checkout"),
);

const historyOf = prepared((db) =>
  db
    .select()
    .from(statusEvents)
    .where(eq(statusEvents.checkoutId, sql.placeholder("id")))
    .orderBy(asc(statusEvents.id))
    .prepare("history_of_checkout"),
);

const refundsOf = prepared((db) =>
  db
    .select()
    .from(refunds)
    .where(eq(refunds.checkoutId, sql.placeholder("id")))
    .orderBy(asc(refunds.createdAt))
    .prepare("refunds_of_checkout"),
);

/** A checkout's refunds, oldest first, failed ones included. */
export async function refundViewsOf(c: CheckoutContext, checkoutId: string): Promise<RefundView[]> {
  return (await refundsOf(c.db).execute({ id: checkoutId })).map(toRefundView);
}

/** What refunds have taken of a payment, in minor units: every one not failed (pending ones are money on its way back). */
export function committedMinor(rows: readonly Pick<RefundRow, "amount" | "statusGroup">[], currency: string): bigint {
  return rows.filter((r) => r.statusGroup !== "failed").reduce((sum, r) => sum + toMinor(r.amount, currency), 0n);
}

/**
 * What of the payment that paid the checkout has been refunded (every refund not failed, pending
 * ones included: they are money on its way back) and what is left to refund, as decimal strings.
 * Nothing is refundable of a checkout not paid, in a currency refunds do not take, or over an API
 * version without refunds; the provider's own rules (methods, a day limit) still apply on top.
 * A duplicate payment's refunds are its own (refunds[], by attemptId).
 */
export function refundTotals(
  checkout: Pick<CheckoutRow, "status" | "amount" | "currency">,
  attempts: readonly Pick<AttemptRow, "id" | "statusGroup" | "duplicateAt" | "completedAt">[],
  refundRows: readonly Pick<RefundRow, "attemptId" | "amount" | "statusGroup">[],
  apiRefunds: boolean,
): { amountRefunded: string; amountRefundable: string } {
  const { currency } = checkout;
  const paying = attempts
    .filter((a) => a.statusGroup === "completed" && !a.duplicateAt)
    .sort((a, b) => (a.completedAt?.getTime() ?? 0) - (b.completedAt?.getTime() ?? 0))[0];
  const refunded = paying
    ? committedMinor(
        refundRows.filter((r) => r.attemptId === paying.id),
        currency,
      )
    : 0n;
  const refundable =
    checkout.status === "paid" && paying && apiRefunds && REFUND_CURRENCIES.includes(currency)
      ? toMinor(checkout.amount, currency) - refunded
      : 0n;
  return { amountRefunded: fromMinor(refunded, currency), amountRefundable: fromMinor(refundable, currency) };
}

export type RefundTotals = ReturnType<typeof refundTotals>;

/**
 * refundTotals of many checkouts in one query (a page of the list, a refund's notification): the
 * payments that paid them with their refunds. Keyed by checkout id.
 */
export async function refundTotalsOf(
  db: Db | Tx,
  rows: readonly Pick<CheckoutRow, "id" | "status" | "amount" | "currency">[],
  apiRefunds: boolean,
): Promise<Map<string, RefundTotals>> {
  const paid = rows.filter((r) => r.status === "paid").map((r) => r.id);
  const found = paid.length
    ? await db
        .select({ attempt: paymentAttempts, refund: refunds })
        .from(paymentAttempts)
        .leftJoin(refunds, eq(refunds.attemptId, paymentAttempts.id))
        .where(
          and(
            inArray(paymentAttempts.checkoutId, paid),
            eq(paymentAttempts.statusGroup, "completed"),
            isNull(paymentAttempts.duplicateAt),
          ),
        )
    : [];
  return new Map(
    rows.map((row) => {
      const own = found.filter((f) => f.attempt.checkoutId === row.id);
      const refundRows = own.flatMap((f) => (f.refund ? [f.refund] : []));
      return [
        row.id,
        refundTotals(
          row,
          own.map((f) => f.attempt),
          refundRows,
          apiRefunds,
        ),
      ];
    }),
  );
}

/** The merchant's view: the checkout with all its attempts, newest first, and its refunds. */
export async function getCheckoutDetail(id: string, c: CheckoutContext): Promise<CheckoutDetail> {
  const found = await loadCheckout(c, id);
  if (!found) throw checkoutNotFound();
  const checkout = await expireIfDue(c, found);
  const attempts = await attemptsOf(c.db).execute({ id });
  const history = await historyOf(c.db).execute({ id });
  const refundRows = await refundsOf(c.db).execute({ id });
  return {
    ...toCheckoutView(checkout),
    ...refundTotals(checkout, attempts, refundRows, c.pis.profile.refunds),
    customerId: checkout.customerId,
    attempts: attempts.map(toAttemptView),
    refunds: refundRows.map(toRefundView),
    // Each change of the checkout's status and what caused it (webhook, landing page check, ...).
    timeline: history
      .filter((e) => e.fromStatus !== e.toStatus)
      .map((e) => ({ at: e.createdAt.toISOString(), from: e.fromStatus, to: e.toStatus, source: e.source })),
  };
}

/** A checkout the payer may still pay, or the refusal that says why not. */
export function assertPayable(
  ctx: CheckoutContext,
  checkout: CheckoutRow | undefined,
): asserts checkout is CheckoutRow {
  if (!checkout) throw checkoutNotFound();
  if (checkout.status === "paid") throw new CheckoutError("already_paid");
  if (checkout.status === "cancelled") throw new CheckoutError("checkout_cancelled");
  if (checkout.status === "expired" || checkout.expiresAt <= nowOf(ctx)) {
    throw new CheckoutError("checkout_expired");
  }
}
