import { and, desc, eq, gt, inArray, isNotNull } from "drizzle-orm";
import { z } from "zod";
import { isUniqueViolation } from "../db/raw";
import { paymentAttempts, type StatusSource } from "../db/schema";
import { CONFIRM_LINK_LIFETIME_MS, PisError, type StatusGroup, type StatusKind } from "../pis";
import { applyProviderStatus, lockAttempt, moveCheckout } from "./apply-status";
import { loadCheckout } from "./checkouts";
import { nowOf, type CheckoutContext, type Tx } from "./context";
import { CheckoutError, checkoutNotFound } from "./errors";
import { toMinor } from "./money";
import { askProvider } from "./checkout-status";
import { endToEndIdOf, inFlightOf } from "./attempts";

/** The landing page's query as the provider sends the payer back (provider-api.md 8); all untrusted. */
export const returnQuery = z.object({
  attempt: z
    .string()
    .regex(/^pa_[0-9a-f-]{36}$/)
    .optional(),
  paymentId: z
    .string()
    .regex(/^[A-Za-z0-9-]{1,64}$/)
    .optional(),
});

/**
 * The payer is back on our landing page with the provider's payment id in the query, for an
 * attempt whose initiation we never finished recording. The query is the payer's to change, so
 * the payment is read from the provider and adopted only if it is this checkout's order.
 */
export async function adoptReturnedPayment(
  ctx: CheckoutContext,
  checkoutId: string,
  attemptId: string,
  providerPaymentId: string,
): Promise<boolean> {
  const [attempt] = await ctx.db
    .select()
    .from(paymentAttempts)
    .where(and(eq(paymentAttempts.id, attemptId), eq(paymentAttempts.checkoutId, checkoutId)));
  if (!attempt || attempt.providerPaymentId !== null) return false;
  const checkout = await loadCheckout(ctx, checkoutId);
  if (!checkout) return false;
  let payment;
  try {
    payment = await ctx.pis.payments.get(providerPaymentId);
  } catch (err) {
    if (err instanceof PisError) return false;
    throw err;
  }
  const method = payment.bankPaymentMethod;
  const ours =
    sameAmount(payment.amount, checkout.amount, checkout.currency) &&
    payment.currencyCode === checkout.currency &&
    (method === undefined ||
      method === null ||
      (method.endToEndId === endToEndIdOf(checkout) && method.creditorAccount?.iban === checkout.creditorIban));
  if (!ours) return false;
  const outcome = await applyProviderStatus(
    ctx,
    { attemptId, bind: { providerPaymentId } },
    payment.status,
    "landing",
  ).catch((err: unknown) => {
    // The payment is already another attempt's: nothing to adopt.
    if (isUniqueViolation(err)) return "unknown_attempt" as const;
    throw err;
  });
  return outcome === "applied";
}

function sameAmount(a: string | number, b: string, currency: string): boolean {
  try {
    return toMinor(String(a), currency) === toMinor(b, currency);
  } catch {
    return false;
  }
}

/**
 * The payments the payer stopped that the bank may still hold, asked about before anything replaces
 * or ends their checkout (a new payment, a cancel): one they approved after all, in a tab left open,
 * sends no webhook until it settles. One seen authorised becomes the checkout's payment again
 * (planStatus), so that no second payment starts and no cancel is answered as if none were under
 * way. Every one whose confirm link may still be followed is asked about, however many the payer
 * stopped (a count let an older one through, issue 51), all at once so the wait is one provider
 * read's at most. A provider that cannot be asked, or not in time, leaves what is stored, an
 * approval seen before included.
 */
export async function takeBackAuthorised(c: CheckoutContext, checkoutId: string, source: StatusSource): Promise<void> {
  const now = nowOf(c);
  const stopped = await c.db
    .select()
    .from(paymentAttempts)
    .where(
      and(
        eq(paymentAttempts.checkoutId, checkoutId),
        isNotNull(paymentAttempts.abandonedAt),
        isNotNull(paymentAttempts.providerPaymentId),
        inArray(paymentAttempts.statusGroup, ["started", "pending"]),
        gt(paymentAttempts.createdAt, new Date(now.getTime() - CONFIRM_LINK_LIFETIME_MS)),
      ),
    )
    .orderBy(desc(paymentAttempts.createdAt));
  const asked = await Promise.all(
    stopped.map((a) => askProvider(c, a.id, a.providerPaymentId!, now, { gapMs: 0, source })),
  );
  for (const [i, attempt] of stopped.entries()) {
    // No answer in time (it lands when it comes): an approval seen before still counts now.
    if (asked[i] === null && attempt.statusGroup === "pending") {
      const kind = (attempt.providerStatusKind ?? "bank") as StatusKind;
      const seen = { group: "pending" as const, code: attempt.providerStatus, kind, errorCodes: [] };
      await applyProviderStatus(c, { attemptId: attempt.id }, seen, source);
    }
  }
}

/**
 * Whether a payment in `group` has nothing left to stop, because the bank failed it (the checkout
 * already takes another payment, or a cancel); a payment that can no longer be stopped is refused
 * with why: paid, or authorised by the payer with its outcome to come.
 */
function endedAtBank(group: StatusGroup | null): boolean {
  if (group === "failed") return true;
  if (group === "completed") throw new CheckoutError("already_paid");
  if (group !== "started")
    throw new CheckoutError("payment_authorised", { detail: "Wait for its result instead of paying again." });
  return false;
}

/**
 * The payer came back from the bank without authorising and wants to pay another way. Allowed
 * only while the provider still reports the payment as merely started; the old payment is kept
 * (not failed), so if the payer does authorise it later in a forgotten tab, the money is seen.
 * `then` runs in the same transaction as the stop, so that nobody sees the checkout open between
 * the two (a cancel: the payer's page would offer another bank for a cancelled order).
 */
export async function abandonPayment(
  checkoutId: string,
  c: CheckoutContext,
  source: "payer" | "merchant" | "staff" = "payer",
  then?: (tx: Tx) => Promise<void>,
): Promise<{ abandoned: true }> {
  const checkout = await loadCheckout(c, checkoutId);
  if (!checkout) throw checkoutNotFound();
  const [attempt] = await c.db.select().from(paymentAttempts).where(inFlightOf(checkoutId));
  if (!attempt) return { abandoned: true };
  if (!attempt.providerPaymentId)
    throw new CheckoutError("payment_in_progress", { detail: "It is still being started." });

  let status;
  try {
    status = await c.pis.payments.status(attempt.providerPaymentId);
  } catch (err) {
    if (!(err instanceof PisError)) throw err;
    throw new CheckoutError("provider_error", { detail: "We could not check your payment with the bank." });
  }
  await applyProviderStatus(c, { attemptId: attempt.id }, status, source);
  if (endedAtBank(status.group)) return { abandoned: true };
  await c.db.transaction(async (tx) => {
    // Checked again under the locks (checkout, then attempt): a webhook may have moved the payment
    // since the provider was asked, and the payer must not be let to pay twice.
    const { checkout: row, attempt: fresh } = (await lockAttempt(tx, eq(paymentAttempts.id, attempt.id))) ?? {};
    if (!row || !fresh || fresh.abandonedAt !== null) return;
    if (endedAtBank(fresh.statusGroup)) return;
    await tx
      .update(paymentAttempts)
      .set({ abandonedAt: new Date(), updatedAt: new Date() })
      .where(eq(paymentAttempts.id, attempt.id));
    await moveCheckout(tx, row, "open", source, attempt.id);
    await then?.(tx);
  });
  return { abandoned: true };
}
