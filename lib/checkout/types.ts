/**
 * Shapes shared by the checkout domain, the route handlers and the pages. Plain data only: these
 * cross the server/client boundary as JSON, so amounts are decimal strings and dates ISO strings.
 */

export const CHECKOUT_STATUSES = ["open", "processing", "paid", "failed", "expired", "cancelled"] as const;
export type CheckoutStatus = (typeof CHECKOUT_STATUSES)[number];

/** The provider's status group of one payment (provider-api.md section 5.1). */
export const STATUS_GROUPS = ["started", "pending", "completed", "failed"] as const;
export type StatusGroup = (typeof STATUS_GROUPS)[number];

export type PaymentMethod = "bank" | "card" | "hybrid";

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
  createdAt: string;
}

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
}

/** One bank as the payer's browser sees it (`GET /api/banks?country=LT`). */
export interface BankView {
  id: string;
  name: string;
  officialName: string | null;
  logoUrl: string | null;
  countryCode: string;
}

export interface BanksResponse {
  country: string;
  banks: BankView[];
}

/** Body of `POST /api/checkouts/{id}/payments`. */
export interface StartPaymentRequest {
  method: "bank";
  /** Absent: the payer chooses the bank on the provider's hosted page. */
  bankId?: string;
  termsAccepted: boolean;
  attemptKey: string;
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
