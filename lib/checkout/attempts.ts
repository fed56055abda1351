import { eq } from "drizzle-orm";
import { paymentAttempts } from "../db/schema";
import { applyProviderStatus, lockAttempt, moveCheckout } from "./apply-status";
import { type CheckoutContext } from "./context";

/**
 * Steps an attempt aside whose initiation has no known outcome (the provider's answer was lost, or
 * the instance making it died): the checkout is open again so the payer can retry, and the attempt
 * waits, unfailed, for the provider's word on it. Only an attempt without a provider payment id;
 * one with an id is only ever settled by the provider.
 */
export async function closeUnknownInitiation(ctx: CheckoutContext, attemptId: string): Promise<boolean> {
  return ctx.db.transaction(async (tx) => {
    const { checkout, attempt } = (await lockAttempt(tx, eq(paymentAttempts.id, attemptId))) ?? {};
    if (
      !checkout ||
      !attempt ||
      attempt.providerPaymentId !== null ||
      attempt.statusGroup !== null ||
      attempt.abandonedAt !== null
    )
      return false;
    await tx
      .update(paymentAttempts)
      .set({ abandonedAt: new Date(), failureReason: "initiation_unknown", updatedAt: new Date() })
      .where(eq(paymentAttempts.id, attemptId));
    await moveCheckout(tx, checkout, "open", "system", attemptId);
    return true;
  });
}

export async function failAttempt(ctx: CheckoutContext, attemptId: string, reason: string) {
  await ctx.db
    .update(paymentAttempts)
    .set({ failureReason: reason, updatedAt: new Date() })
    .where(eq(paymentAttempts.id, attemptId));
  await applyProviderStatus(
    ctx,
    { attemptId },
    { group: "failed", code: null, kind: "bank", errorCodes: [] },
    "initiation",
  );
}

/** What the provider keeps of our order on the payment (provider-api.md 4.2: at most 33 characters). */
export const endToEndIdOf = (checkout: { reference: string }) => checkout.reference.slice(0, 33);
