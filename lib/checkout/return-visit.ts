import { hitAll, type Hit } from "../http/rate-limit";
import { nowOf, type CheckoutContext } from "./context";
import { adoptReturnedPayment } from "./payments";

/**
 * The payer is back on the landing page from the bank, and the redirect names the attempt
 * (`?attempt=`, with `?paymentId=` when we may never have recorded the provider's id): whom to ask
 * the provider about, never what it said. Returns the attempt to ask about, or undefined when this
 * load may not ask (the page then answers from what is stored, and the latest attempt is still
 * asked about at its own pace).
 *
 * Anyone with the checkout's link can load this page in a loop, and every ask is a provider read
 * (tried up to three times) against the project's quota (issue 51). So the loads that ask are
 * counted in the database, shared by every instance (`limits`, returnReadHits): at most one per
 * gap for one attempt, and a number per minute per address. The payer who has just come back is
 * the first load, and is asked for at once.
 */
export async function cameBackFrom(
  c: CheckoutContext,
  checkoutId: string,
  query: { attempt?: string; paymentId?: string },
  limits: Hit[],
): Promise<string | undefined> {
  if (!query.attempt) return undefined;
  const verdicts = await hitAll(c.db, limits, nowOf(c));
  if (verdicts.some((v) => !v.ok)) return undefined;
  if (query.paymentId) await adoptReturnedPayment(c, checkoutId, query.attempt, query.paymentId);
  return query.attempt;
}
