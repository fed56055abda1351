/**
 * Every error the API answers, in one closed table: read this first.
 *
 * A code is the contract: merchants and our own pages branch on it, never on the wording. Each
 * code has one HTTP status, a message in every language (`apiError.<code>` in
 * lib/i18n/messages; the English one is the problem's `title`), and whether trying the same
 * thing again later may work (`retry`, also in the problem body). lib/http/openapi.ts lists the
 * codes each route can answer; lib/errors.test.ts checks that nothing is missing.
 *
 * Plain data, no imports: the server throws these (lib/checkout/errors.ts), lib/http answers
 * them as application/problem+json, and the browser reads `code` and `retry` from that body.
 */
export const ERRORS = {
  // The request itself: fix it, sending it again as it is will not help.
  invalid_request: { status: 400, retry: false },
  invalid_json: { status: 400, retry: false },
  invalid_body: { status: 400, retry: false },
  unauthorized: { status: 401, retry: false },
  checkout_not_found: { status: 404, retry: false },
  method_not_allowed: { status: 405, retry: false },
  not_found: { status: 404, retry: false },
  cross_site_action: { status: 403, retry: false },
  // A signed-in staff member whose role may not do this (lib/staff/roles.ts).
  role_forbidden: { status: 403, retry: false },
  // An API key without the scope this call needs (lib/api-keys).
  insufficient_scope: { status: 403, retry: false },
  length_required: { status: 411, retry: false },
  body_too_large: { status: 413, retry: false },
  unsupported_media_type: { status: 415, retry: false },
  idempotency_key_reused: { status: 422, retry: false },
  rate_limited: { status: 429, retry: true },

  // The payer's choice on the checkout page.
  terms_required: { status: 422, retry: false },
  unknown_bank: { status: 422, retry: false },
  method_unavailable: { status: 422, retry: false },
  saving_unavailable: { status: 422, retry: true },

  // Where the checkout stands: the page, reloaded, shows it.
  already_paid: { status: 409, retry: false },
  checkout_cancelled: { status: 409, retry: false },
  checkout_expired: { status: 410, retry: false },
  payment_in_progress: { status: 409, retry: true },
  payment_authorised: { status: 409, retry: false },
  attempt_failed: { status: 409, retry: true },
  saved_account_ended: { status: 409, retry: false },
  no_saved_account: { status: 409, retry: false },

  // Payment links (lib/payment-links): the link, and why it takes no payment now.
  payment_link_not_found: { status: 404, retry: false },
  payment_link_ended: { status: 410, retry: false },
  payment_link_busy: { status: 409, retry: true },

  // Refunds (merchant API and back office).
  not_paid: { status: 409, retry: false },
  refund_currency: { status: 422, retry: false },
  refund_not_allowed: { status: 422, retry: false },
  refund_too_late: { status: 422, retry: false },
  refund_exceeds_payment: { status: 422, retry: false },
  refund_refused: { status: 422, retry: false },

  // The provider could not be reached or refused: no money moved.
  provider_error: { status: 502, retry: true },
  // It answered, and refused: the same request again will not help.
  payment_refused: { status: 422, retry: false },
  banks_unavailable: { status: 502, retry: true },

  // Provider webhooks: anything but 200 makes the provider deliver again.
  webhook_malformed: { status: 400, retry: false },
  webhook_unsigned: { status: 401, retry: false },
  webhook_unknown_payment: { status: 404, retry: true },

  internal_error: { status: 500, retry: true },
  // The database does not answer (a restart, a failover): the same request works once it is back.
  service_unavailable: { status: 503, retry: true },
} as const satisfies Record<string, { status: number; retry: boolean }>;

export type ErrorCode = keyof typeof ERRORS;

export const ERROR_CODES = Object.keys(ERRORS) as ErrorCode[];

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && Object.hasOwn(ERRORS, value);
}

/** The message id of a code in every language's catalogue. */
export const errorMessageId = <C extends ErrorCode>(code: C) => `apiError.${code}` as const;
