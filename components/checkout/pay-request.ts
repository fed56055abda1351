import { ApiError } from "@/components/query/fetch-json";
import { httpUrl } from "./links";
import type { FormMessages } from "./PaymentForm";

/**
 * What the payer's browser does with the answer to "start paying": follow only a plain http(s)
 * link, and turn a refusal into a message, whether to offer Try again, and whether to reload.
 */

export type PayErrorKey = Extract<keyof FormMessages, `payError.${string}`>;

/** The link to send the payer to; anything but a plain http(s) link is refused as `bad_link`. */
export function linkToFollow(link: unknown): string {
  const url = httpUrl(link);
  if (!url) throw new ApiError("bad confirm link", 502, "bad_link", null);
  return url.href;
}

export interface PayErrorOutcome {
  key: PayErrorKey;
  /** Offer Try again. */
  retry: boolean;
  /** Reload: the server's page shows what is going on (an attempt in flight, paid, expired). */
  reload: boolean;
  /** The attempt is over: the next Pay needs a new attempt key. */
  newKey: boolean;
}

const outcome = (key: PayErrorKey, retry: boolean, reload = false, newKey = false): PayErrorOutcome => ({ key, retry, reload, newKey });

const BY_CODE = new Map<string, PayErrorOutcome>(Object.entries({
  provider_error: outcome("payError.providerError", true, false, true),
  attempt_failed: outcome("payError.attemptFailed", true, false, true),
  method_unavailable: outcome("payError.methodUnavailable", false),
  payment_in_progress: outcome("payError.inProgress", false, true),
  already_paid: outcome("payError.ended", false, true),
  checkout_expired: outcome("payError.ended", false, true),
  checkout_cancelled: outcome("payError.ended", false, true),
  // The page, reloaded, says the saved account ended and offers to save it again.
  saved_account_ended: outcome("payError.savedEnded", false, true, true),
  no_saved_account: outcome("payError.savedEnded", false, true, true),
  saving_unavailable: outcome("payError.savingUnavailable", true),
  checkout_not_found: outcome("payError.notFound", false),
  rate_limited: outcome("payError.rateLimited", true),
  bad_link: outcome("payError.badLink", true, false, true),
}));

/** What a failed start means to the payer, and what happens next. */
export function explain(error: unknown): PayErrorOutcome {
  if (!(error instanceof ApiError)) return outcome("payError.generic", true);
  return (error.code !== null && BY_CODE.get(error.code)) || outcome(error.status === 0 ? "payError.network" : "payError.generic", true);
}
