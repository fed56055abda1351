import type { ResendOutcome } from "@/lib/checkout/resend-notification";
import type { CheckoutError } from "@/lib/checkout/errors";
import type { CheckoutStatus } from "@/lib/checkout/types";
import type { ActionResult } from "./action-state";

/*
 * The answers of the checkout page's Cancel checkout and Send again, as sentences for staff. The
 * error table's titles are written for the payer ("Your bank already has this payment"); staff
 * need to hear what happened to the checkout and what to do next.
 */

const CANCEL_REFUSALS: Partial<Record<CheckoutError["code"], string>> = {
  payment_authorised:
    "Not cancelled: the payer has authorised a payment at the bank, and that cannot be stopped. Wait for its outcome, and refund it if it is paid.",
  payment_in_progress: "Not cancelled: the payer is starting a payment right now. Try again in a moment.",
  provider_error:
    "Nothing was cancelled: the payment service could not be asked about the payer's payment. Try again in a moment.",
  already_paid: "Not cancelled: this checkout is paid. Refund it instead.",
  checkout_expired: "Not cancelled: this checkout has expired, so it cannot be paid any more.",
  checkout_not_found: "This checkout was not found.",
};

export function describeCancelError(err: CheckoutError): string {
  return CANCEL_REFUSALS[err.code] ?? [err.title, err.detail].filter(Boolean).join(" ");
}

/** The cancel answered with the checkout: cancelled, or (a payment completed meanwhile) paid. */
export function describeCancel(status: CheckoutStatus): ActionResult {
  if (status === "cancelled") return { ok: true, message: "Checkout cancelled. The payer can no longer pay it." };
  if (status === "paid")
    return { ok: false, error: "Not cancelled: the payer's payment was just paid. Refund it instead." };
  return { ok: false, error: `Not cancelled: the checkout is ${status}. Reload the page to see why.` };
}

export function describeResend(outcome: ResendOutcome): ActionResult {
  switch (outcome) {
    case "queued":
      return { ok: true, message: "Sending it again now. The table shows when the merchant has it." };
    case "delivered":
      return { ok: true, message: "The merchant already has this notification." };
    case "in_delivery":
      return { ok: true, message: "This notification is already being sent." };
    case "not_found":
      return { ok: false, error: "This notification was not found. Reload the page." };
  }
}
