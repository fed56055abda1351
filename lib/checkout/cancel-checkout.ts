import { eq } from "drizzle-orm";
import { checkouts, paymentAttempts } from "../db/schema";
import { expireIfDue, moveCheckout } from "./apply-status";
import { getCheckoutDetail, loadCheckout } from "./checkouts";
import type { CheckoutContext, Tx } from "./context";
import type { CheckoutDetail } from "./contract";
import { CheckoutError, checkoutNotFound } from "./errors";
import { inFlightOf } from "./attempts";
import { abandonPayment, takeBackAuthorised } from "./payments";

/**
 * The merchant cancels a checkout (the order was cancelled, or went out of stock): its page takes no
 * more payments. A payment the payer has not authorised at the bank is stopped first, as when the
 * payer abandons one; one they have authorised cannot be stopped, so the checkout keeps it and its
 * outcome. A stopped payment that the payer still approves at the bank later (a tab left open) makes
 * the checkout paid, because the money moved: the merchant hears `checkout.paid` and refunds it.
 */
export async function cancelCheckout(
  checkoutId: string,
  c: CheckoutContext,
  by: "merchant" | "staff" = "merchant",
): Promise<CheckoutDetail> {
  const found = await loadCheckout(c, checkoutId);
  if (!found) throw checkoutNotFound();
  const checkout = await expireIfDue(c, found);
  if (checkout.status === "cancelled") return getCheckoutDetail(checkoutId, c);
  if (checkout.status === "paid") throw new CheckoutError("already_paid");
  if (checkout.status === "expired") throw new CheckoutError("checkout_expired");
  // A payment the payer stopped and still approved is under way again, and is not stopped below.
  await takeBackAuthorised(c, checkoutId, by);
  // A payment in flight is stopped and the checkout cancelled in one transaction; with none, it is
  // cancelled in a transaction of its own.
  let cancelled = false;
  const cancel = async (tx: Tx) => {
    await cancelUnderLock(tx, checkoutId, by);
    cancelled = true;
  };
  await abandonPayment(checkoutId, c, by, cancel);
  if (!cancelled) await c.db.transaction(cancel);
  return getCheckoutDetail(checkoutId, c);
}

async function cancelUnderLock(tx: Tx, checkoutId: string, by: "merchant" | "staff"): Promise<void> {
  const [row] = await tx.select().from(checkouts).where(eq(checkouts.id, checkoutId)).for("update");
  if (!row || row.status === "cancelled") return;
  if (row.status === "paid") throw new CheckoutError("already_paid");
  if (row.status === "expired") throw new CheckoutError("checkout_expired");
  // Under the checkout's lock no payment can start (ADR 13): one the payer started meanwhile wins.
  const [inFlight] = await tx.select({ id: paymentAttempts.id }).from(paymentAttempts).where(inFlightOf(checkoutId));
  if (inFlight) throw new CheckoutError("payment_in_progress", { detail: "The payer has just started a payment." });
  await moveCheckout(tx, row, "cancelled", by);
}
