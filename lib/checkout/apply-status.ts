import { eq } from "drizzle-orm";
import type { NormalisedStatus } from "../pis";
import { checkouts, paymentAttempts, statusEvents, type StatusSource } from "../db/schema";
import type { CheckoutContext } from "./context";
import { canMoveAttempt, canMoveCheckout, checkoutStatusForAttempt } from "./status-machine";
import type { CheckoutStatus } from "./types";

export type Tx = Parameters<Parameters<CheckoutContext["db"]["transaction"]>[0]>[0];

export type ApplyOutcome = "applied" | "unchanged" | "unknown_attempt";

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
    await tx
      .update(paymentAttempts)
      .set({
        statusGroup: status.group,
        providerStatus: status.code,
        providerStatusKind: status.kind,
        errorCodes: status.errorCodes.length > 0 ? status.errorCodes : attempt.errorCodes,
        updatedAt: new Date(),
      })
      .where(eq(paymentAttempts.id, attempt.id));

    const [checkout] = await tx.select().from(checkouts).where(eq(checkouts.id, attempt.checkoutId)).for("update");
    if (!checkout) throw new Error(`attempt ${attempt.id} has no checkout`);
    const next = checkoutStatusForAttempt(status.group);
    const moved = next !== checkout.status && canMoveCheckout(checkout.status, next);
    if (moved) {
      await tx.update(checkouts).set({ status: next, updatedAt: new Date() }).where(eq(checkouts.id, checkout.id));
    }
    await tx.insert(statusEvents).values({
      checkoutId: checkout.id,
      attemptId: attempt.id,
      fromStatus: checkout.status,
      toStatus: moved ? next : checkout.status,
      providerStatus: status.code,
      source,
    });
    return "applied";
  });
}

/** Moves a checkout itself (not through an attempt), e.g. open -> processing or -> expired. */
export async function moveCheckout(
  tx: Tx,
  checkout: { id: string; status: CheckoutStatus },
  to: CheckoutStatus,
  source: StatusSource,
  attemptId?: string,
): Promise<boolean> {
  if (checkout.status === to || !canMoveCheckout(checkout.status, to)) return false;
  await tx.update(checkouts).set({ status: to, updatedAt: new Date() }).where(eq(checkouts.id, checkout.id));
  await tx.insert(statusEvents).values({ checkoutId: checkout.id, attemptId, fromStatus: checkout.status, toStatus: to, source });
  return true;
}
