/**
 * The checkout's vocabulary: the statuses, methods and languages every layer names. Plain
 * constants with no imports, so the browser can use them too. The shapes the API answers are in
 * ./contract.ts (zod schemas, types inferred from them).
 */

export const CHECKOUT_STATUSES = ["open", "processing", "paid", "failed", "expired", "cancelled"] as const;
export type CheckoutStatus = (typeof CHECKOUT_STATUSES)[number];

/** The provider's status group of one payment (provider-api.md section 5.1). */
export const STATUS_GROUPS = ["started", "pending", "completed", "failed"] as const;
export type StatusGroup = (typeof STATUS_GROUPS)[number];

/** bank: pay from a bank account; card: card only; hybrid: the payer picks on the provider's page. */
export const PAYMENT_METHODS = ["bank", "card", "hybrid"] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export const LOCALES = ["en", "lt", "lv", "et"] as const;
export type Locale = (typeof LOCALES)[number];

/**
 * Who or what made a status change, as the checkout's timeline names it (README "Statuses").
 * `merchant` is the merchant's backend over the API, `staff` a person in the back office: both act
 * for the merchant, but a support question ("who cancelled this?") needs to know which.
 */
export const STATUS_SOURCES = [
  "initiation",
  "landing",
  "webhook",
  "reconciliation",
  "payer",
  "merchant",
  "staff",
  "system",
] as const;
export type StatusSource = (typeof STATUS_SOURCES)[number];

/** What the merchant is told at its notifyUrl (README "Notifications to the merchant"). */
export const NOTIFICATION_EVENTS = [
  "checkout.paid",
  "checkout.payment_failed",
  "checkout.expired",
  "checkout.duplicate_payment",
  "refund.completed",
  "refund.failed",
] as const;
export type NotificationEvent = (typeof NOTIFICATION_EVENTS)[number];

/** One line of an order: what, how many, and the price of one (a decimal string). */
export interface LineItem {
  name: string;
  quantity: number;
  unitAmount: string;
}

/** Stripe's limits on a checkout's metadata: keys, key length, value length. */
export const METADATA_LIMITS = { keys: 20, keyLength: 40, valueLength: 500 } as const;
