import { randomUUID } from "node:crypto";
import { and, desc, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import { askProvider, getCheckoutStatus } from "../checkout/checkout-status";
import { nowOf, type CheckoutContext } from "../checkout/context";
import type { CheckoutStatusView } from "../checkout/contract";
import { CheckoutError } from "../checkout/errors";
import { startPayment } from "../checkout/start-payment";
import { paymentAttempts } from "../db/schema";

/*
 * A merchant's own tests pay a checkout without a browser (issue 54): in sandbox mode only, the
 * checkout's payment is started as the payer's Pay would start it, then decided at the sandbox
 * bank through the sandbox's control API (over HTTP, as any client of the provider would), and the
 * checkout's status read from the provider. Every rule of the money path holds: nothing is set by
 * hand in our database.
 */

export const completePaymentInput = z.strictObject({
  outcome: z.enum(["paid", "failed", "cancelled"]).meta({
    description: "What the sandbox bank does with the payment: approve it, reject it, or the payer cancels it",
  }),
});
export type CompletePaymentInput = z.infer<typeof completePaymentInput>;

/** The sandbox's bank statuses (ISO 20022) for each outcome. */
const BANK_STATUS = { paid: "ACSC", failed: "RJCT", cancelled: "CANC" } as const;

/** Where the sandbox's control API is, and its secret (the app's settings in sandbox mode). */
export interface SandboxControl {
  /** The provider's base URL (the sandbox's, ending in /platform). */
  pisBaseUrl: string;
  controlSecret: string;
}

export async function completeTestPayment(
  c: CheckoutContext,
  sandbox: SandboxControl,
  checkoutId: string,
  input: CompletePaymentInput,
): Promise<CheckoutStatusView> {
  // The payment under way, if the payer (or an earlier call) started one; else one started now.
  let attempt = await paymentUnderWay(c, checkoutId);
  if (!attempt) {
    await startPayment(checkoutId, { method: "bank", termsAccepted: true, attemptKey: `test-${randomUUID()}` }, c);
    attempt = await paymentUnderWay(c, checkoutId);
  }
  if (!attempt?.providerPaymentId)
    throw new CheckoutError("provider_error", { detail: "The sandbox did not start the payment." });
  const res = await fetch(
    `${new URL(sandbox.pisBaseUrl).origin}/_sandbox/payments/${attempt.providerPaymentId}/status`,
    {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Sandbox-Secret": sandbox.controlSecret },
      body: JSON.stringify({ bankStatus: BANK_STATUS[input.outcome] }),
      signal: AbortSignal.timeout(10_000),
    },
  );
  if (!res.ok)
    throw new CheckoutError("provider_error", { detail: `The sandbox refused the outcome (${res.status}).` });
  // Read at once, as when the payer comes back from the bank (not held back by a read just made).
  await askProvider(c, attempt.id, attempt.providerPaymentId, nowOf(c), { gapMs: 0 });
  return getCheckoutStatus(checkoutId, c, { askProvider: false });
}

async function paymentUnderWay(c: CheckoutContext, checkoutId: string) {
  const [row] = await c.db
    .select({ id: paymentAttempts.id, providerPaymentId: paymentAttempts.providerPaymentId })
    .from(paymentAttempts)
    .where(
      and(eq(paymentAttempts.checkoutId, checkoutId), inArray(paymentAttempts.statusGroup, ["started", "pending"])),
    )
    .orderBy(desc(paymentAttempts.createdAt))
    .limit(1);
  return row;
}
