import { z } from "zod";
import { ERROR_CODES } from "../errors";
import { PAYMENT_FAILURE_REASONS } from "../pis/status";
import { DECIMAL_AMOUNT } from "./money";
import { CHECKOUT_STATUSES, NOTIFICATION_EVENTS, PAYMENT_METHODS, STATUS_GROUPS, STATUS_SOURCES } from "./types";

/**
 * What the API answers, as zod schemas: the TypeScript types below come from them, and
 * lib/http/openapi.ts turns them into the OpenAPI document's response schemas, so code, types and
 * document cannot tell different stories (e2e/contract.ts checks real answers against the
 * document). Requests are parsed by the schemas beside the code that takes them (createCheckoutInput,
 * startPaymentInput, ...). Amounts are decimal strings, times ISO 8601 strings.
 *
 * Server code only: client components import these types with `import type`, never the schemas.
 */

export const amount = z
  .string()
  .regex(DECIMAL_AMOUNT)
  .meta({ description: 'Decimal string in the currency\'s units, e.g. "12.50"' });
/**
 * An amount a merchant sends. Checked against its currency beside the code that takes it
 * (amountProblem), so that one bad amount gets one message; the pattern is here for the document.
 */
export const amountInput = z.string().meta({
  description: 'Decimal string in the currency\'s units, greater than zero, with at most its minor units, e.g. "12.50"',
  pattern: DECIMAL_AMOUNT.source,
});
const time = z.iso.datetime();
const checkoutStatus = z.enum(CHECKOUT_STATUSES);
const statusGroup = z.enum(STATUS_GROUPS);
const statusSource = z.enum(STATUS_SOURCES).meta({
  description:
    "Who made the change: the payment start (initiation), the landing page's check, a provider webhook, reconciliation, the payer (paying another way), the merchant's backend, staff in the back office, or the system (creation, expiry, a payment start cut off before the provider answered)",
});

export const problemSchema = z.object({
  type: z.string(),
  title: z.string().meta({ description: "The code's message in English; the same for every answer with this code" }),
  status: z.int(),
  code: z.enum(ERROR_CODES),
  retry: z.boolean().meta({ description: "Whether the same request may work later" }),
  detail: z.string().optional(),
  errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type Problem = z.infer<typeof problemSchema>;

export const lineItemView = z.object({
  name: z.string(),
  quantity: z.int(),
  unitAmount: amount.meta({ description: "The price of one, in the checkout's currency" }),
});

export const metadataView = z
  .record(z.string(), z.string())
  .meta({ description: "Your own keys and values, as you sent them ({} when none)" });

export const checkoutView = z.object({
  id: z.string(),
  amount,
  currency: z.string(),
  description: z.string(),
  reference: z.string(),
  metadata: metadataView,
  lineItems: z.array(lineItemView).meta({ description: "What the order is made of, as you sent it ([] when none)" }),
  status: checkoutStatus,
  creditorName: z.string(),
  country: z.string().nullable(),
  locale: z.string().nullable(),
  returnUrl: z.string(),
  createdAt: time,
  expiresAt: time,
});
export type CheckoutView = z.infer<typeof checkoutView>;

export const attemptView = z.object({
  id: z.string(),
  method: z.enum(PAYMENT_METHODS),
  bankId: z.string().nullable(),
  statusGroup: statusGroup.nullable().meta({ description: "null while the provider has not answered the initiation" }),
  providerStatus: z
    .string()
    .nullable()
    .meta({ description: "The provider's own status of the payment, for support and reconciliation" }),
  abandoned: z
    .boolean()
    .meta({ description: "The payer left it unauthorised to pay another way (it may still complete at the bank)" }),
  duplicate: z
    .boolean()
    .meta({ description: "Completed after another attempt had already paid the checkout: money to give back" }),
  createdAt: time,
});
export type AttemptView = z.infer<typeof attemptView>;

/** Why the latest attempt failed, in words a payer understands: the provider's reasons, or a start that never reached it. */
export const failureReason = z.enum([...PAYMENT_FAILURE_REASONS, "provider_error"]);
export type FailureReason = z.infer<typeof failureReason>;

export const checkoutStatusView = z.object({
  id: z.string(),
  status: checkoutStatus,
  final: z.boolean().meta({
    description:
      "No payment is under way: paid, or no payment can start (expired, cancelled), or the last one failed (the payer may try again until the checkout expires). Only paid is for ever: a payment the payer had stopped can still be approved at the bank, and makes an expired, cancelled or failed checkout paid",
  }),
  amount,
  currency: z.string(),
  returnUrl: z.string(),
  attempt: attemptView.nullable(),
  failureReason: failureReason.nullable().meta({ description: "Set when the checkout or its latest attempt failed" }),
});
export type CheckoutStatusView = z.infer<typeof checkoutStatusView>;

export const createdCheckout = z.object({ id: z.string(), url: z.url(), status: checkoutStatus, expiresAt: time });

export const refundView = z.object({
  id: z.string(),
  attemptId: z.string().meta({ description: "The payment it gives money back from" }),
  amount,
  currency: z.string(),
  status: z.enum([...STATUS_GROUPS, "unknown"]),
  reason: z.string().nullable(),
  createdBy: z.string().meta({
    description:
      'Who made it: "merchant-api", "staff" (the back office) or "provider" (at the provider, outside this shop)',
  }),
  createdAt: time,
});
export type RefundView = z.infer<typeof refundView>;

/** What refunds have taken of the checkout's payment and what is left: wherever the checkout is returned. */
const refundAmounts = {
  amountRefunded: amount.meta({
    description: "Refunded of the payment that paid it: every refund not failed, pending ones included",
  }),
  amountRefundable: amount.meta({
    description:
      'What can still be refunded of it ("0.00" unless paid, in a refundable currency); the provider\'s rules (methods, a day limit) apply on top',
  }),
};

export const checkoutDetail = checkoutView.extend({
  ...refundAmounts,
  customerId: z.string().nullable(),
  attempts: z.array(attemptView),
  refunds: z.array(refundView).meta({ description: "Oldest first, failed ones included" }),
  timeline: z.array(z.object({ at: time, from: checkoutStatus.nullable(), to: checkoutStatus, source: statusSource })),
});
export type CheckoutDetail = z.infer<typeof checkoutDetail>;

export const bankView = z.object({
  id: z.string(),
  name: z.string(),
  officialName: z.string().nullable(),
  logoUrl: z.string().nullable(),
  countryCode: z.string(),
  popular: z.boolean().meta({ description: "One of the country's most used banks: listed first" }),
  linkable: z.boolean().meta({ description: "The payer may save an account at this bank" }),
  searchTerms: z.array(z.string()),
});
export type BankView = z.infer<typeof bankView>;

export const banksResponse = z.object({ country: z.string(), banks: z.array(bankView) });
export type BanksResponse = z.infer<typeof banksResponse>;

export const startPaymentResponse = z.object({ attemptId: z.string(), confirmLink: z.url() });
export type StartPaymentResponse = z.infer<typeof startPaymentResponse>;

export const abandonResponse = z.object({ abandoned: z.literal(true) });
export const linkingResponse = z.object({ authorizationLink: z.url() });
export const forgetResponse = z.object({ forgotten: z.boolean() });

/** The customer's saved bank account in this browser, as the checkout page shows it (ADR 11). */
export const savedAccount = z.object({
  state: z.enum(["active", "expired"]),
  bankId: z.string(),
  bankName: z.string(),
  maskedIban: z.string().nullable(),
  covers: z.boolean().nullable(),
});
export type SavedAccountView = z.infer<typeof savedAccount>;

export const refundList = z.object({ refunds: z.array(refundView) });

export const checkoutList = z.object({
  items: z.array(checkoutView.extend(refundAmounts)),
  page: z.int(),
  hasMore: z.boolean().meta({ description: "Another page follows (page=page+1)" }),
});
export type CheckoutList = z.infer<typeof checkoutList>;

export const staffListing = z.object({
  items: z.array(checkoutView.extend({ bankId: z.string().nullable(), attempts: z.int(), paidTwice: z.boolean() })),
  page: z.int(),
  hasMore: z.boolean(),
  bankNames: z.record(z.string(), z.string()),
});
export type StaffListing = z.infer<typeof staffListing>;

export const staffDetail = z.object({
  checkout: checkoutView,
  notifyUrl: z.string().nullable(),
  attempts: z.array(
    attemptView.extend({
      providerPaymentId: z.string().nullable(),
      failureReason: z.string().nullable(),
      errorCodes: z.array(z.int()),
    }),
  ),
  timeline: z.array(
    z.object({
      at: time,
      from: checkoutStatus.nullable(),
      to: checkoutStatus,
      providerStatus: z.string().nullable(),
      source: statusSource,
      attemptId: z.string().nullable(),
    }),
  ),
  refundRequests: z
    .array(
      z.object({
        id: z.string(),
        amount: z.string(),
        reason: z.string().nullable(),
        state: z.enum(["requested", "approved", "rejected", "lapsed"]),
        requestedBy: z.string(),
        requestedByEmail: z.string(),
        requestedAt: time,
        decidedByEmail: z.string().nullable(),
        decidedAt: time.nullable(),
      }),
    )
    .meta({ description: "Refunds above REFUND_APPROVAL_ABOVE asked for by staff, newest first (four eyes)" }),
  staffActions: z
    .array(
      z.object({
        at: time,
        by: z.string().meta({ description: "The staff member's email, or \"API key\" and the key's name" }),
        action: z.string(),
        outcome: z.enum(["succeeded", "failed", "refused"]),
        detail: z.record(z.string(), z.string()).nullable(),
      }),
    )
    .meta({ description: "What staff and API keys did to this checkout, oldest first (the audit trail's rows)" }),
  webhooks: z.array(
    z.object({ at: time, type: z.string().nullable(), signatureValid: z.boolean(), outcome: z.string() }),
  ),
  notifications: z.array(
    z.object({
      id: z.string(),
      event: z.string(),
      url: z.string(),
      attempts: z.int(),
      deliveredAt: time.nullable(),
      lastStatus: z.int().nullable(),
      lastError: z.string().nullable(),
      givenUp: z
        .boolean()
        .meta({ description: "Not delivered after the last retry: no longer tried until staff send it again" }),
      laterDelivered: z.string().nullable().meta({
        description:
          "For one given up: the event of a later notification of its checkout the merchant already has. Sent again, this older one arrives after it",
      }),
    }),
  ),
  refunds: z.array(
    z.object({
      id: z.string(),
      attemptId: z.string(),
      amount,
      status: z.enum([...STATUS_GROUPS, "unknown"]),
      reason: z.string().nullable(),
      failureReason: z.string().nullable(),
      createdBy: z.string(),
      createdAt: time,
    }),
  ),
  refundable: amount,
  duplicates: z.array(
    z.object({
      attemptId: z.string(),
      providerPaymentId: z.string().nullable(),
      completedAt: time,
      refundable: amount,
    }),
  ),
  bankNames: z.record(z.string(), z.string()),
});
export type StaffDetail = z.infer<typeof staffDetail>;

export const liveness = z.object({ status: z.literal("ok") });
export const readinessView = z.object({
  status: z.enum(["ready", "degraded", "not_ready"]).meta({
    description: "ready: serves payments; degraded: serves pages, the provider cannot be used; not_ready: no database",
  }),
  database: z.enum(["ok", "unreachable"]),
  provider: z.enum(["ok", "unreachable", "credentials_refused", "wrong_address", "failing"]).meta({
    description:
      "unreachable: no answer (network, timeout); credentials_refused: it answered 401/403 (PIS_CLIENT_ID, PIS_CLIENT_SECRET); wrong_address: no provider API at PIS_BASE_URL (404, or not its answer); failing: any other error answer. The log says more",
  }),
});
export type Readiness = z.infer<typeof readinessView>;

/** The body of a notification we POST to the merchant's notifyUrl, signed (Checkout-Signature). */
export const merchantNotification = z.object({
  id: z.string().meta({ description: "The same on every retry, and sent as Checkout-Delivery-Id: drop repeats" }),
  event: z.enum(NOTIFICATION_EVENTS),
  createdAt: time,
  sequence: z.int().meta({
    description:
      "Orders one checkout's checkout.* events: a later event has a higher number. Apply one only if its number is higher than the last you applied for that checkout; a lower one (a late retry, or sent again by staff) is history, not news",
  }),
  checkout: z
    .object({
      id: z.string(),
      reference: z.string(),
      amount,
      currency: z.string(),
      metadata: metadataView,
      amountRefunded: refundAmounts.amountRefunded.optional(),
      amountRefundable: refundAmounts.amountRefundable.optional(),
    })
    .meta({
      description:
        "amountRefunded and amountRefundable come with the refund.* events, counted after the refund the event is about",
    }),
  status: checkoutStatus.optional().meta({ description: "The checkout's status after the event (checkout.* events)" }),
  attemptId: z
    .string()
    .optional()
    .meta({ description: "The payment attempt the event is about; a duplicate payment's is what to refund" }),
  refund: z
    .object({ id: z.string(), amount, currency: z.string() })
    .optional()
    .meta({ description: "The refund the event is about (refund.* events)" }),
});
export type MerchantNotification = z.infer<typeof merchantNotification>;
