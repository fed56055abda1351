import { ApiError } from "@/components/query/fetch-json";
import { httpUrl } from "./http-url";
import type { MessageId } from "@/lib/i18n/format";

/**
 * What the payer's browser does with the answer to "start paying": follow only a plain http(s)
 * link, and turn a refusal into a message, whether to offer Try again, and whether to reload.
 */

/** A refusal's message: the code's own (lib/errors.ts), or one for what happened in the browser. */
export type PayErrorKey = Extract<MessageId, `payError.${string}` | `apiError.${string}`>;

/** The link to send the payer to; anything but a plain http(s) link is refused as `bad_link`. */
export function linkToFollow(link: unknown): string {
  const url = httpUrl(link);
  if (!url) throw new ApiError("bad confirm link", 502, "bad_link", null);
  return url.href;
}

export interface PayErrorOutcome {
  key: PayErrorKey;
  /** Offer Try again: the server says whether trying again may work. */
  retry: boolean;
  /** Reload: the server's page shows what is going on (an attempt in flight, paid, expired). */
  reload: boolean;
  /** The attempt is over: the next Pay needs a new attempt key. */
  newKey: boolean;
}

/** What the page does after a refusal, beyond showing its message. */
const RELOAD = new Set([
  "payment_in_progress",
  "already_paid",
  "checkout_expired",
  "checkout_cancelled",
  "saved_account_ended",
  "no_saved_account",
]);
const NEW_KEY = new Set([
  "provider_error",
  "payment_refused",
  "attempt_failed",
  "saved_account_ended",
  "no_saved_account",
]);

/**
 * The message of an API error code, when the page has words for it. The catalogue has them for
 * every code of lib/errors.ts in each language (lib/errors.test.ts), so the browser asks it and
 * carries no copy of that table.
 */
export function apiErrorKey(code: string | null, messages: object): PayErrorKey | null {
  const key = `apiError.${code}`;
  return code !== null && Object.hasOwn(messages, key) ? (key as PayErrorKey) : null;
}

/** What a failed start means to the payer, and what happens next; `messages` is the page's catalogue. */
export function explain(error: unknown, messages: object): PayErrorOutcome {
  const local = (key: PayErrorKey, newKey = false): PayErrorOutcome => ({ key, retry: true, reload: false, newKey });
  if (!(error instanceof ApiError)) return local("payError.generic");
  if (error.code === "bad_link") return local("payError.badLink", true);
  const { code, problem } = error;
  const key = apiErrorKey(code, messages);
  if (!problem || !code || !key) return local(error.status === 0 ? "payError.network" : "payError.generic");
  const reload = RELOAD.has(code);
  return { key, retry: problem.retry && !reload, reload, newKey: NEW_KEY.has(code) };
}
