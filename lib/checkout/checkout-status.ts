import { and, eq, isNull, lt, or } from "drizzle-orm";
import { paymentAttempts, type StatusSource } from "../db/schema";
import { PisError } from "../pis";
import { applyProviderStatus, expireIfDue } from "./apply-status";
import { nowOf, type CheckoutContext } from "./context";
import { checkoutNotFound } from "./errors";
import { isFinalCheckout, isFinalGroup } from "./status-machine";
import type { CheckoutStatusView } from "./contract";
import { checkoutWithLatestAttempt, failureReasonOf, toAttemptView } from "./checkouts";
import { PROVIDER_DATA_WAIT_MS } from "./cache";
import { withinMs } from "./poll";

/**
 * The status the landing page shows. While the latest attempt is not final, asks the provider
 * first: the redirect's query string is never trusted, and the webhook may not have come yet.
 * `askProvider: false` answers from what is stored (a page render that cannot wait for the provider).
 * `returnedFrom`: the attempt the payer came back from (the redirect's `?attempt=`). It may be one
 * they had stopped and still approved in a tab left open, which no webhook reports while the bank
 * holds it, so the provider is asked about it too. Only whom to ask comes from the query string.
 */
export async function getCheckoutStatus(
  id: string,
  c: CheckoutContext,
  opts: { askProvider?: boolean; returnedFrom?: string } = {},
): Promise<CheckoutStatusView> {
  let { checkout, attempt } = await checkoutWithLatestAttempt(c, id);
  if (!checkout) throw checkoutNotFound();
  const now = nowOf(c);
  if (
    opts.askProvider !== false &&
    opts.returnedFrom &&
    opts.returnedFrom !== attempt?.id &&
    (await askAboutReturned(c, id, opts.returnedFrom, now)) === "applied"
  ) {
    const fresh = await checkoutWithLatestAttempt(c, id);
    checkout = fresh.checkout ?? checkout;
    attempt = fresh.attempt;
  }
  // Many tabs may poll one checkout: ask the provider at most once per REFRESH_MIN_MS.
  const recentlyChecked = attempt?.checkedAt && now.getTime() - attempt.checkedAt.getTime() < REFRESH_MIN_MS;
  if (
    opts.askProvider !== false &&
    attempt?.providerPaymentId &&
    !isFinalGroup(attempt.statusGroup) &&
    !recentlyChecked &&
    (await askProvider(c, attempt.id, attempt.providerPaymentId, now)) === "applied"
  ) {
    const fresh = await checkoutWithLatestAttempt(c, id);
    checkout = fresh.checkout ?? checkout;
    attempt = fresh.attempt;
  }
  checkout = await expireIfDue(c, checkout);
  return {
    id: checkout.id,
    status: checkout.status,
    final: isFinalCheckout(checkout.status),
    amount: checkout.amount,
    currency: checkout.currency,
    returnUrl: checkout.returnUrl,
    attempt: attempt ? toAttemptView(attempt) : null,
    // A payment the payer stopped to pay another way fails without failing the checkout (ADR 8).
    failureReason:
      attempt && (checkout.status === "failed" || (attempt.statusGroup === "failed" && !attempt.abandonedAt))
        ? failureReasonOf(attempt)
        : null,
  };
}

const REFRESH_MIN_MS = 2000;

/** askProvider for an attempt of this checkout that the payer came back from, while it is not final. */
async function askAboutReturned(c: CheckoutContext, checkoutId: string, attemptId: string, now: Date) {
  const [returned] = await c.db
    .select()
    .from(paymentAttempts)
    .where(and(eq(paymentAttempts.id, attemptId), eq(paymentAttempts.checkoutId, checkoutId)));
  if (!returned?.providerPaymentId || isFinalGroup(returned.statusGroup)) return null;
  // Not held back by a check moments ago (the worker's, another tab's): the payer may have approved
  // since, and nothing else asks about this attempt again soon. One ask per arrival from the bank.
  return askProvider(c, returned.id, returned.providerPaymentId, now, { gapMs: 0 });
}

/**
 * Asks the provider about an attempt and applies its answer; null when this read does not ask or
 * gets no answer in time. Of reads that arrive together (tabs, instances), only the one whose write
 * moves checked_at asks, at most once in `gapMs`. A provider that hangs (a GET is tried three
 * times, 15 s each) must not hold the page, its poll or a new payment: past the wait, what is
 * stored is answered, and the answer lands when it comes. One that cannot be reached must not break
 * them either: the next read asks again.
 */
export async function askProvider(
  c: CheckoutContext,
  attemptId: string,
  providerPaymentId: string,
  now: Date,
  { gapMs = REFRESH_MIN_MS, source = "landing" }: { gapMs?: number; source?: StatusSource } = {},
): Promise<Awaited<ReturnType<typeof applyProviderStatus>> | null> {
  const claimed = await c.db
    .update(paymentAttempts)
    .set({ checkedAt: now })
    .where(
      and(
        eq(paymentAttempts.id, attemptId),
        or(isNull(paymentAttempts.checkedAt), lt(paymentAttempts.checkedAt, new Date(now.getTime() - gapMs))),
      ),
    )
    .returning({ id: paymentAttempts.id });
  if (claimed.length === 0) return null;
  const refresh = (async () =>
    applyProviderStatus(c, { attemptId }, await c.pis.payments.status(providerPaymentId), source))();
  try {
    return await withinMs(refresh, PROVIDER_DATA_WAIT_MS);
  } catch (err) {
    if (!(err instanceof PisError)) throw err;
    return null;
  }
}
