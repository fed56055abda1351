import { ApiError } from "@/components/ui/api";
import type { FormMessages } from "./PaymentForm";

/**
 * What the payer's browser does with the answer to "start paying": follow only a plain http(s)
 * link, and turn a refusal into a message, whether to offer Try again, and whether to reload.
 */

export type PayErrorKey = Extract<keyof FormMessages, `payError.${string}`>;

export function safeLink(link: unknown): string | null {
  if (typeof link !== "string") return null;
  try {
    const url = new URL(link);
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : null;
  } catch {
    return null;
  }
}

/** What a failed start means to the payer, and what happens next. */
export function explain(error: unknown): { key: PayErrorKey; retry: boolean; reload: boolean; newKey: boolean } {
  const code = error instanceof ApiError ? error.code : null;
  switch (code) {
    case "provider_error":
      return { key: "payError.providerError", retry: true, reload: false, newKey: true };
    case "attempt_failed":
      return { key: "payError.attemptFailed", retry: true, reload: false, newKey: true };
    case "method_unavailable":
      return { key: "payError.methodUnavailable", retry: false, reload: false, newKey: false };
    case "payment_in_progress":
      return { key: "payError.inProgress", retry: false, reload: true, newKey: false };
    case "already_paid":
    case "checkout_expired":
    case "checkout_cancelled":
      return { key: "payError.ended", retry: false, reload: true, newKey: false };
    case "saved_account_ended":
    case "no_saved_account":
      // The page, reloaded, says the saved account ended and offers to save it again.
      return { key: "payError.savedEnded", retry: false, reload: true, newKey: true };
    case "saving_unavailable":
      return { key: "payError.savingUnavailable", retry: true, reload: false, newKey: false };
    case "checkout_not_found":
      return { key: "payError.notFound", retry: false, reload: false, newKey: false };
    case "rate_limited":
      return { key: "payError.rateLimited", retry: true, reload: false, newKey: false };
    case "bad_link":
      return { key: "payError.badLink", retry: true, reload: false, newKey: true };
    default:
      if (error instanceof ApiError && error.status === 0) return { key: "payError.network", retry: true, reload: false, newKey: false };
      return { key: "payError.generic", retry: true, reload: false, newKey: false };
  }
}

