import type { CheckoutStatus, PaymentMethod } from "./types";

/**
 * What the checkout domain tells an onlooker as it happens (the app's metrics, lib/metrics): no
 * ids, no amounts. Set once per process by the app context; tests without one tell no one.
 * Called synchronously where the thing happened, so it must be cheap and must not throw.
 */
export interface CheckoutObserver {
  /** A checkout was written, by the merchant's API or a payer on a payment link. */
  created(origin: "api" | "payment_link"): void;
  /**
   * A checkout moved to a final status; `method` and `bankId` of the payment that moved it, if one
   * did (no bank: a card, or a bank the payer chose on the provider's page).
   */
  ended(status: CheckoutStatus, method: PaymentMethod | null, bankId: string | null): void;
  /** Banks the provider listed (a country's list, or one bank looked up): the bank ids `ended` may name. */
  banksListed(bankIds: readonly string[]): void;
  /** One delivery of a notification to the merchant: taken (2xx), failed (retried later), or the last try failed. */
  delivered(result: "delivered" | "failed" | "given_up"): void;
}

// On globalThis: Next bundles this module into more than one chunk, and a status moved from any
// of them is reported to the same onlooker. Moves happen inside transactions that carry no context.
const holder = globalThis as { __checkoutObserver?: CheckoutObserver };

export function setCheckoutObserver(observer: CheckoutObserver | undefined): void {
  holder.__checkoutObserver = observer;
}

/** Tells the onlooker, if there is one; its fault never fails the checkout's own work. */
export function tell(event: (o: CheckoutObserver) => void): void {
  const observer = holder.__checkoutObserver;
  if (!observer) return;
  try {
    event(observer);
  } catch {
    // Metrics are not worth a payment.
  }
}
