import { randomUUID } from "node:crypto";
import { and, asc, eq } from "drizzle-orm";
import { z } from "zod";
import { checkouts, paymentAttempts, refunds } from "../db/schema";
import { PisError } from "../pis";
import type { Tx } from "./apply-status";
import { defaultContext, loadCheckout } from "./checkouts";
import { nowOf, webhookUrl, type CheckoutContext } from "./context";
import { CheckoutError } from "./errors";
import { amountProblem, fromMinor, toMinor } from "./money";
import { enqueueNotification } from "./notifications";
import { projectInfo } from "./project";
import { canMoveAttempt } from "./status-machine";
import type { StatusGroup } from "./types";

/** Bank refunds are paid out only in these currencies (provider-api.md 4.5). */
export const REFUND_CURRENCIES = ["EUR", "PLN"];

export const createRefundInput = z.object({
  amount: z.string(),
  reason: z.string().trim().max(200).optional(),
});
export type CreateRefundInput = z.infer<typeof createRefundInput>;

type RefundRow = typeof refunds.$inferSelect;

export interface RefundView {
  id: string;
  amount: string;
  currency: string;
  status: StatusGroup | "unknown";
  reason: string | null;
  createdBy: string;
  createdAt: string;
}

const toView = (r: RefundRow): RefundView => ({
  id: r.id,
  amount: r.amount,
  currency: r.currency,
  status: r.statusGroup ?? "unknown",
  reason: r.reason,
  createdBy: r.createdBy,
  createdAt: r.createdAt.toISOString(),
});

/** What is paid and what is refunded or on its way, in minor units. Failed refunds do not count. */
async function refundable(tx: Tx, checkoutId: string, currency: string, paid: string) {
  const rows = await tx.select().from(refunds).where(eq(refunds.checkoutId, checkoutId));
  const committed = rows.filter((r) => r.statusGroup !== "failed").reduce((sum, r) => sum + toMinor(r.amount, currency), 0n);
  return { paid: toMinor(paid, currency), committed };
}

/**
 * Refunds all or part of a paid checkout. The refund row is written under a lock on the checkout
 * before the provider is asked, so two refunds at once cannot together exceed the paid amount.
 */
export async function createRefund(checkoutId: string, input: CreateRefundInput, by: string, ctx?: CheckoutContext): Promise<RefundView> {
  const c = ctx ?? (await defaultContext());
  const checkout = await loadCheckout(c, checkoutId);
  if (!checkout) throw new CheckoutError(404, "checkout_not_found", "This checkout does not exist.");
  if (checkout.status !== "paid") throw new CheckoutError(409, "not_paid", "Only a paid checkout can be refunded.");
  const problem = amountProblem(input.amount, checkout.currency);
  if (problem) throw new CheckoutError(400, "invalid_request", "The refund is not valid.", undefined, [{ path: "amount", message: problem }]);
  if (!REFUND_CURRENCIES.includes(checkout.currency)) {
    throw new CheckoutError(422, "refund_currency", `Refunds are only possible in ${REFUND_CURRENCIES.join(" or ")}.`);
  }
  const [attempt] = await c.db
    .select()
    .from(paymentAttempts)
    .where(and(eq(paymentAttempts.checkoutId, checkoutId), eq(paymentAttempts.statusGroup, "completed")))
    .orderBy(asc(paymentAttempts.completedAt))
    .limit(1);
  if (!attempt?.providerPaymentId) throw new CheckoutError(409, "not_paid", "Only a paid checkout can be refunded.");
  const paidBy = attempt.providerStatusKind === "card" ? "card" : "bank";
  const project = await projectInfo(c);
  if (!project.refunds.allowedFor.includes(paidBy)) {
    throw new CheckoutError(422, "refund_not_allowed", `Refunds of ${paidBy} payments are not enabled for this shop.`);
  }
  const dayLimit = paidBy === "card" ? project.refunds.cardDayLimit : project.refunds.bankDayLimit;
  const paidAt = attempt.completedAt ?? attempt.updatedAt;
  if (dayLimit !== null && nowOf(c).getTime() - paidAt.getTime() > dayLimit * 24 * 3600_000) {
    throw new CheckoutError(422, "refund_too_late", `Payments can only be refunded within ${dayLimit} days.`);
  }

  const id = `rf_${randomUUID()}`;
  await c.db.transaction(async (tx) => {
    await tx.select({ id: checkouts.id }).from(checkouts).where(eq(checkouts.id, checkoutId)).for("update");
    const { paid, committed } = await refundable(tx, checkoutId, checkout.currency, checkout.amount);
    const left = paid - committed;
    if (toMinor(input.amount, checkout.currency) > left) {
      throw new CheckoutError(422, "refund_exceeds_payment", `At most ${fromMinor(left, checkout.currency)} ${checkout.currency} can still be refunded.`, undefined, [
        { path: "amount", message: `must be at most ${fromMinor(left, checkout.currency)}` },
      ]);
    }
    await tx.insert(refunds).values({ id, checkoutId, attemptId: attempt.id, amount: input.amount, currency: checkout.currency, reason: input.reason, createdBy: by });
  });

  try {
    const res = await c.pis.refunds.create(attempt.providerPaymentId, { amount: input.amount, webhookUrl: webhookUrl(c) });
    await c.db.update(refunds).set({ providerRefundId: res.id, statusGroup: res.statusGroup, updatedAt: new Date() }).where(eq(refunds.id, id));
  } catch (err) {
    if (!(err instanceof PisError)) throw err;
    // An unknown outcome keeps the refund counted against the payment (never over-refund) and
    // visible as "unknown" for staff to check with the provider; a refusal frees the amount.
    await c.db
      .update(refunds)
      .set({ statusGroup: err.outcomeUnknown ? null : "failed", failureReason: err.outcomeUnknown ? "outcome_unknown" : `provider_${err.httpStatus}_${err.providerName ?? err.code ?? "error"}`, updatedAt: new Date() })
      .where(eq(refunds.id, id));
    throw new CheckoutError(502, "provider_error", err.outcomeUnknown ? "The payment service did not answer; check the refund's status before trying again." : `The payment service refused the refund${err.description ? `: ${err.description}` : "."}`);
  }
  const [row] = await c.db.select().from(refunds).where(eq(refunds.id, id));
  return toView(row!);
}

export async function listRefunds(checkoutId: string, ctx?: CheckoutContext): Promise<RefundView[]> {
  const c = ctx ?? (await defaultContext());
  if (!(await loadCheckout(c, checkoutId))) throw new CheckoutError(404, "checkout_not_found", "This checkout does not exist.");
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
