/**
 * Shapes shared by the checkout domain, the route handlers and the pages. Plain data only: these
 * cross the server/client boundary as JSON, so amounts are decimal strings and dates ISO strings.
 */

import type { PaymentFailureReason } from "../pis";

export const CHECKOUT_STATUSES = ["open", "processing", "paid", "failed", "expired", "cancelled"] as const;
export type CheckoutStatus = (typeof CHECKOUT_STATUSES)[number];

/** The provider's status group of one payment (provider-api.md section 5.1). */
export const STATUS_GROUPS = ["started", "pending", "completed", "failed"] as const;
export type StatusGroup = (typeof STATUS_GROUPS)[number];

export type PaymentMethod = "bank" | "card" | "hybrid";

export const LOCALES = ["en", "lt", "lv", "et"] as const;
export type Locale = (typeof LOCALES)[number];

export interface CheckoutView {
  id: string;
  amount: string;
  currency: string;
  description: string;
  reference: string;
  status: CheckoutStatus;
  creditorName: string;
  country: string | null;
  locale: string | null;
  returnUrl: string;
  createdAt: string;
  expiresAt: string;
}

export interface AttemptView {
  id: string;
  method: PaymentMethod;
  bankId: string | null;
  /** null while the provider has not answered the initiation yet. */
  statusGroup: StatusGroup | null;
  /** The provider's bank/card/hybrid status code, e.g. "ACSC". */
  providerStatus: string | null;
  /** The payer left it unauthorised to pay another way (it may still complete at the bank). */
  abandoned: boolean;
  /** Completed after another attempt had already paid the checkout: money to give back (ADR 13). */
  duplicate: boolean;
  createdAt: string;
}

/** Why the latest attempt failed, in words a payer understands: the provider's reasons, or a start that never reached it. */
export type FailureReason = PaymentFailureReason | "provider_error";

/** What `GET /api/checkouts/{id}/status` answers. */
export interface CheckoutStatusView {
  id: string;
  status: CheckoutStatus;
  /** true when the status will not change any more by itself (paid, failed, expired, cancelled). */
  final: boolean;
  amount: string;
  currency: string;
  returnUrl: string;
  attempt: AttemptView | null;
  /** Set when the checkout or its latest attempt failed. */
  failureReason: FailureReason | null;
}

/** One bank as the payer's browser sees it (`GET /api/banks?country=LT`). */
export interface BankView {
  id: string;
  name: string;
  officialName: string | null;
  logoUrl: string | null;
  countryCode: string;
  /** One of the country's most used banks: shown first. The list comes popular-first, then by name. */
  popular: boolean;
  /** The bank allows account linking: the payer may save the account for one-click payments. */
  linkable: boolean;
  /** Lower-case, diacritics-free search terms: name, official name and common short names. */
  searchTerms: string[];
}

export interface BanksResponse {
  country: string;
  banks: BankView[];
}

/** Body of `POST /api/checkouts/{id}/payments`. */
export interface StartPaymentRequest {
  /** bank: pay from a bank account; card: card only; hybrid: the payer picks on the provider's page. */
  method: PaymentMethod;
  /** Bank method only. Absent: the payer chooses the bank on the provider's hosted page. */
  bankId?: string;
  /** The country of the provider's hosted bank choice when no bankId is given. */
  country?: string;
  termsAccepted: boolean;
  attemptKey: string;
  /** Language of the provider's pages. */
  lang?: Locale;
  /** Pay from the saved account (bank method, no bankId). */
  savedAccount?: true;
}

/** The customer's saved bank account in this browser, as the checkout page shows it (ADR 11). */
export interface SavedAccountView {
  /** active: pay in one click; expired: the link ended (90 days, or consent withdrawn): link again. */
  state: "active" | "expired";
  bankId: string;
  bankName: string;
  /** "LT60 •••• 8901"; null without account-information consent or when the bank did not answer. */
  maskedIban: string | null;
  /** Whether the available balance covers the amount; null when unknown. */
  covers: boolean | null;
}

/** Everything the checkout page needs, computed on the server for one request. */
export interface CheckoutPageData {
  checkout: CheckoutView;
  /** From ?lang=, else the checkout's locale, else Accept-Language, else en. */
  locale: Locale;
  /** From the checkout's country hint, else an IP-country header, else Accept-Language, else LT. */
  defaultCountry: string;
  /** Countries the payer can switch to (ISO codes), in the provider's order. */
  countries: string[];
  /** Methods the project allows; card and hybrid need `card` in the project's payment methods. */
  methods: { bank: boolean; card: boolean; hybrid: boolean };
  /** The provider project is a test project: show the test banner. */
  sandboxProject: boolean;
  /** The latest attempt, to show an attempt in flight after Back from the bank. */
  attempt: (AttemptView & { bankName: string | null }) | null;
  /** The payer may save the account while paying: the shop named its customer, the project allows linking. */
  canSaveAccount: boolean;
  savedAccount: SavedAccountView | null;
}

export interface StartPaymentResponse {
  attemptId: string;
  confirmLink: string;
}

/** Every API error body (application/problem+json). */
export interface Problem {
  type: string;
  title: string;
  status: number;
  code: string;
  detail?: string;
  errors?: { path: string; message: string }[];
}
