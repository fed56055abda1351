import { z } from "zod";
import { activityQuery } from "../audit/filter";
import { checkoutFilter } from "../checkout/backoffice-filter";
import * as contract from "../checkout/contract";
import { createRefundInput } from "../checkout/refunds";
import { completePaymentInput } from "../test-helpers/complete-payment";
import { createPaymentLinkInput, paymentLinkList, paymentLinkListQuery, paymentLinkView } from "../payment-links/links";
import { ERROR_CODES, ERRORS, type ErrorCode } from "../errors";
import { en } from "../i18n/messages/en";
import { startLinkingInput } from "../checkout/saved-accounts/linking";
import { createCheckoutInput } from "../checkout/create-checkout";
import { startPaymentInput } from "../checkout/start-payment";

const jsonSchema = (s: z.ZodType, io: "input" | "output") => {
  const { $schema: _, ...rest } = z.toJSONSchema(s, { io, unrepresentable: "any" }) as Record<string, unknown>;
  return rest;
};
const json = (s: z.ZodType, io: "input" | "output" = "output") => ({
  "application/json": { schema: jsonSchema(s, io) },
});

/** Refusals every route can answer: a bug of ours, or the database not answering (a restart). */
const ALWAYS: ErrorCode[] = ["internal_error", "service_unavailable"];
/** What lib/http/route.ts refuses before a handler runs, by what the route takes. */
const JSON_BODY: ErrorCode[] = [
  "unsupported_media_type",
  "invalid_json",
  "invalid_body",
  "body_too_large",
  "invalid_request",
];
/** The payer's browser's routes that change something (`ownPagesOnly`): another site's page is refused. */
const OWN_PAGES: ErrorCode[] = ["cross_site_action"];
const PARAMS: ErrorCode[] = ["invalid_request"];
const MERCHANT: ErrorCode[] = ["unauthorized", "insufficient_scope"];
/** A staff route: no session, or a role that may not (lib/staff/roles.ts). */
const STAFF: ErrorCode[] = ["unauthorized", "role_forbidden"];

interface Operation {
  summary: string;
  security?: keyof typeof SECURITY;
  parameters?: object[];
  body?: z.ZodType;
  /** The success answer: JSON of `schema`, or text of `textType` (a CSV export, say). */
  ok: { description: string; schema?: z.ZodType; status?: number; textType?: string };
  /** Every code of lib/errors.ts this operation can answer; ALWAYS's are added. */
  errors: ErrorCode[];
  headers?: Record<string, object>;
  /** Answers besides the success and the refusals (a 304, say). */
  more?: Record<string, object>;
}

/** The problem+json answers of one operation: one response per status, its `code` limited to the codes listed. */
function errorResponses(codes: ErrorCode[]) {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set([...codes, ...ALWAYS]))
    byStatus.set(ERRORS[code].status, [...(byStatus.get(ERRORS[code].status) ?? []), code]);
  return Object.fromEntries(
    [...byStatus].map(([status, list]) => [
      String(status),
      {
        description: list.map((c) => `\`${c}\`: ${en[`apiError.${c}`]}`).join("\n\n"),
        content: {
          "application/problem+json": {
            schema: {
              allOf: [
                { $ref: "#/components/schemas/Problem" },
                { required: ["code"], properties: { code: { type: "string", enum: list } } },
              ],
            },
          },
        },
      },
    ]),
  );
}

/** Each kind of caller's credential; the metrics take no credential from this machine (`{}`). */
const SECURITY = {
  merchant: [{ merchantKey: [] }],
  staff: [{ staffSession: [] }],
  metrics: [{ metricsToken: [] }, {}],
};

function operation(op: Operation) {
  return {
    summary: op.summary,
    ...(op.security && { security: SECURITY[op.security] }),
    ...(op.parameters && { parameters: op.parameters }),
    ...(op.body && { requestBody: { required: true, content: json(op.body, "input") } }),
    "x-error-codes": [...new Set([...op.errors, ...ALWAYS])],
    responses: {
      [String(op.ok.status ?? 200)]: {
        description: op.ok.description,
        ...(op.ok.schema && { content: json(op.ok.schema) }),
        ...(op.ok.textType && { content: { [op.ok.textType]: { schema: { type: "string" } } } }),
        ...(op.headers && { headers: op.headers }),
      },
      ...op.more,
      ...errorResponses(op.errors),
    },
  };
}

const idParam = { name: "checkoutId", in: "path", required: true, schema: { type: "string" } };
const linkIdParam = {
  name: "linkId",
  in: "path",
  required: true,
  description: "The link's id, or its slug (the last part of its url).",
  schema: { type: "string" },
};
const idempotencyKey = (description: string) => ({
  name: "Idempotency-Key",
  in: "header",
  required: false,
  schema: { type: "string", maxLength: 255 },
  description,
});
/** Sent with an answer that is an earlier request's, found by its Idempotency-Key. */
const replayedHeader = {
  "Idempotent-Replayed": {
    schema: { type: "string", enum: ["true"] },
    description: "Present when this answer is the earlier request's with the same Idempotency-Key (a replay)",
  },
};
const queryParams = (schema: z.ZodType) =>
  Object.entries((jsonSchema(schema, "input") as { properties: Record<string, object> }).properties).map(
    ([name, s]) => ({ name, in: "query", required: false, schema: s }),
  );

/** Where the payer's browser starts or stops a payment: refusals of a checkout that can no longer be paid. */
const NOT_PAYABLE: ErrorCode[] = ["checkout_not_found", "already_paid", "checkout_cancelled", "checkout_expired"];
const PAYER_CHOICE: ErrorCode[] = ["terms_required", "unknown_bank", "rate_limited", "provider_error"];

/** The answers proxy.ts gives to page requests (form posts) before they reach a page. */
export const PAGE_ERRORS: ErrorCode[] = ["length_required", "body_too_large", "cross_site_action", "invalid_body"];
/**
 * What a payment link's page (/pay/{slug}) answers a payer with, as a page in their language with
 * the code's status: a link gone (410) or its last payment being paid now (409).
 */
export const PAY_PAGE_ERRORS: ErrorCode[] = ["payment_link_not_found", "payment_link_ended", "payment_link_busy"];
/** The answer to a method a path does not list (with `Allow`; lib/http/route.ts otherMethods). */
export const OTHER_METHOD_ERRORS: ErrorCode[] = ["method_not_allowed"];
/** The answer to an address under /api that the document does not list (app/api/[...unknown]). */
export const UNKNOWN_PATH_ERRORS: ErrorCode[] = ["not_found"];

/**
 * The OpenAPI 3.1 description of the public API, generated from the zod schemas that parse its
 * requests and type its answers (lib/checkout/contract.ts) and from the error table (lib/errors.ts).
 */
export function openApiDocument(serverUrl: string) {
  return {
    openapi: "3.1.0",
    info: {
      title: "Bank checkout API",
      version: "1.0.0",
      description:
        "Create checkouts for bank payments, follow them, refund them. Every refusal is application/problem+json with a stable `code` (lib/errors.ts); a method a path does not list is answered 405 `method_not_allowed` with `Allow`, and an address the document does not list 404 `not_found`.",
    },
    servers: [{ url: serverUrl }],
    // Every code of the error table with its status, retry flag and English message: what a
    // merchant on a hosted instance, who has no lib/errors.ts, reads them by (README "Error codes").
    "x-error-table": Object.fromEntries(
      ERROR_CODES.map((code) => [code, { ...ERRORS[code], title: en[`apiError.${code}`] }]),
    ),
    "x-page-error-codes": PAGE_ERRORS,
    "x-other-method-error-codes": OTHER_METHOD_ERRORS,
    "x-pay-page-error-codes": PAY_PAGE_ERRORS,
    "x-unknown-path-error-codes": UNKNOWN_PATH_ERRORS,
    // What we POST to a checkout's notifyUrl (README "Notifications to the merchant").
    webhooks: {
      merchantNotification: {
        post: {
          summary:
            "A checkout was paid, a payment failed, a checkout expired, a second payment completed, or a refund completed or failed. Delivered at least once, one checkout's in order: answer 2xx within 10 s, or it is retried (10 s, 1 min, 5 min, 30 min, 2 h, 6 h, 12 h, 24 h) and the checkout's later notifications wait for it, so answer 2xx to events you do not handle too",
          parameters: [
            {
              name: "Checkout-Signature",
              in: "header",
              required: true,
              schema: { type: "string" },
              description:
                't=<unix ms>,v1=<hex HMAC-SHA256(MERCHANT_NOTIFY_SECRET, "<t>.<raw body>")>, one v1= per signing secret. t is Unix time in milliseconds (not seconds), set when this delivery was sent: refuse one more than 5 minutes from your clock, either way',
            },
            { name: "Checkout-Delivery-Id", in: "header", required: true, schema: { type: "string" } },
          ],
          requestBody: { required: true, content: json(contract.merchantNotification) },
          responses: { "2XX": { description: "Taken: not sent again" } },
        },
      },
    },
    components: {
      securitySchemes: {
        merchantKey: { type: "http", scheme: "bearer", description: "MERCHANT_API_KEY" },
        metricsToken: { type: "http", scheme: "bearer", description: "METRICS_TOKEN (not needed from this machine)" },
        staffSession: {
          type: "apiKey",
          in: "cookie",
          name: "bo_session",
          description: "The back office's session, set by signing in at /backoffice/login",
        },
      },
      schemas: { Problem: jsonSchema(contract.problemSchema, "output") },
    },
    paths: {
      "/api/checkouts": {
        post: operation({
          summary: "Create a checkout",
          security: "merchant",
          parameters: [idempotencyKey("A retry with the same key returns the same checkout.")],
          body: createCheckoutInput,
          ok: {
            description: "Created (or the same checkout again for a repeated Idempotency-Key)",
            schema: contract.createdCheckout,
          },
          headers: replayedHeader,
          errors: [...MERCHANT, ...JSON_BODY, "idempotency_key_reused"],
        }),
        get: operation({
          summary:
            "Your checkouts, newest first, 25 a page: q finds a reference (or part of one) or an id; from and to are days (UTC) of creation",
          security: "merchant",
          parameters: queryParams(checkoutFilter),
          ok: { description: "One page of checkouts", schema: contract.checkoutList },
          errors: [...MERCHANT, ...PARAMS],
        }),
      },
      "/api/checkouts/{checkoutId}": {
        get: operation({
          summary: "A checkout with its payment attempts",
          security: "merchant",
          parameters: [idParam],
          ok: { description: "The checkout", schema: contract.checkoutDetail },
          errors: [...MERCHANT, ...PARAMS, "checkout_not_found"],
        }),
      },
      "/api/checkouts/{checkoutId}/cancel": {
        post: operation({
          summary:
            "Cancel a checkout: its page takes no more payments. A payment the payer has not authorised is stopped; one they have is left to finish (payment_authorised). Cancelling a cancelled checkout answers it again. A stopped payment the payer still approves at the bank makes it paid (checkout.paid), as the money moved",
          security: "merchant",
          parameters: [idParam],
          ok: { description: "The cancelled checkout", schema: contract.checkoutDetail },
          errors: [
            ...MERCHANT,
            ...PARAMS,
            "checkout_not_found",
            "already_paid",
            "checkout_expired",
            "payment_in_progress",
            "payment_authorised",
            "provider_error",
          ],
        }),
      },
      "/api/checkouts/{checkoutId}/payments": {
        post: operation({
          summary: "Start a payment (payer's browser)",
          parameters: [idParam],
          body: startPaymentInput,
          ok: { description: "Go to confirmLink", schema: contract.startPaymentResponse },
          errors: [
            ...OWN_PAGES,
            ...JSON_BODY,
            ...NOT_PAYABLE,
            ...PAYER_CHOICE,
            "method_unavailable",
            "payment_in_progress",
            "payment_refused",
            "attempt_failed",
            "saved_account_ended",
            "no_saved_account",
          ],
        }),
      },
      "/api/checkouts/{checkoutId}/payments/abandon": {
        post: operation({
          summary: "Stop the payment in flight to pay another way (payer's browser); refused once the bank has it",
          parameters: [idParam],
          ok: { description: "Stopped", schema: contract.abandonResponse },
          errors: [
            ...OWN_PAGES,
            ...PARAMS,
            "checkout_not_found",
            "rate_limited",
            "payment_in_progress",
            "payment_authorised",
            "already_paid",
            "provider_error",
          ],
        }),
      },
      "/api/checkouts/{checkoutId}/saved-account": {
        post: operation({
          summary: "Save the payer's bank account while paying (payer's browser): go to authorizationLink",
          parameters: [idParam],
          body: startLinkingInput,
          ok: {
            description: "Go to authorizationLink; sets the payer_handle cookie",
            schema: contract.linkingResponse,
          },
          errors: [...OWN_PAGES, ...JSON_BODY, ...NOT_PAYABLE, ...PAYER_CHOICE, "saving_unavailable"],
        }),
        delete: operation({
          summary: "Forget the payer's saved bank account in this browser",
          parameters: [idParam],
          ok: { description: "Whether an account was forgotten", schema: contract.forgetResponse },
          errors: [...OWN_PAGES, ...PARAMS, "checkout_not_found"],
        }),
      },
      "/api/checkouts/{checkoutId}/status": {
        get: operation({
          summary: "Current status, refreshed from the provider while not final",
          parameters: [idParam],
          ok: { description: "The status", schema: contract.checkoutStatusView },
          errors: [...PARAMS, "checkout_not_found"],
        }),
      },
      "/api/test-helpers/checkouts/{checkoutId}/complete": {
        post: operation({
          summary:
            "Sandbox mode only, for your tests: the checkout's payment (the one under way, or one started now) is paid, failed or cancelled at the sandbox bank, as a payer would; the answer is the checkout's status after it. With a real provider: 404",
          security: "merchant",
          parameters: [idParam],
          body: completePaymentInput,
          ok: {
            description: "The checkout's status after the sandbox bank's decision",
            schema: contract.checkoutStatusView,
          },
          // What the payment's start can answer (startPayment), and the sandbox's own refusal.
          errors: [
            ...MERCHANT,
            ...JSON_BODY,
            "not_found",
            ...NOT_PAYABLE,
            "method_unavailable",
            "payment_in_progress",
            "payment_refused",
            "provider_error",
          ],
        }),
      },
      "/api/checkouts/{checkoutId}/refunds": {
        post: operation({
          summary: "Refund all or part of a paid checkout, or a duplicate payment of it (attemptId)",
          security: "merchant",
          parameters: [
            idParam,
            idempotencyKey(
              "A retry with the same key and request returns the first refund; the same key with another request is refused 422 idempotency_key_reused.",
            ),
          ],
          body: createRefundInput,
          ok: { description: "The refund", schema: contract.refundView },
          headers: replayedHeader,
          more: {
            "202": {
              description:
                "The refund was sent but the provider did not answer: its status is `unknown`, it counts against the payment, and its outcome follows (`refund.completed` or `refund.failed`). Do not send it again under a new key.",
              content: json(contract.refundView),
            },
          },
          errors: [
            ...MERCHANT,
            ...JSON_BODY,
            "checkout_not_found",
            "not_paid",
            "refund_currency",
            "refund_not_allowed",
            "refund_too_late",
            "refund_exceeds_payment",
            "refund_refused",
            "idempotency_key_reused",
            "provider_error",
          ],
        }),
        get: operation({
          summary: "Refunds of a checkout",
          security: "merchant",
          parameters: [idParam],
          ok: { description: "The refunds", schema: contract.refundList },
          errors: [...MERCHANT, ...PARAMS, "checkout_not_found"],
        }),
      },
      "/api/payment-links": {
        post: operation({
          summary:
            "Make a payment link: a page at url that payers open to pay a fixed amount or one they choose, without a call from your backend per payment. Each payment is a checkout (notifications as usual)",
          security: "merchant",
          parameters: [
            idempotencyKey(
              "A retry with the same key and request returns the same link, whichever of your API keys sends it (a rolled key too).",
            ),
          ],
          body: createPaymentLinkInput,
          ok: {
            description: "The link (or the same link again for a repeated Idempotency-Key)",
            schema: paymentLinkView,
            status: 201,
          },
          headers: replayedHeader,
          errors: [...MERCHANT, ...JSON_BODY, "idempotency_key_reused"],
        }),
        get: operation({
          summary: "Your payment links, newest first, 200 a page",
          security: "merchant",
          parameters: queryParams(paymentLinkListQuery),
          ok: { description: "One page of links", schema: paymentLinkList },
          errors: [...MERCHANT, ...PARAMS],
        }),
      },
      "/api/payment-links/{linkId}": {
        get: operation({
          summary: "A payment link with its status, paid checkouts and what they add up to",
          security: "merchant",
          parameters: [linkIdParam],
          ok: { description: "The link", schema: paymentLinkView },
          errors: [...MERCHANT, ...PARAMS, "payment_link_not_found"],
        }),
      },
      "/api/payment-links/{linkId}/deactivate": {
        post: operation({
          summary:
            "Stop a link taking payments (its page answers 410); checkouts already made from it stay payable until they end. Deactivating it again answers it again",
          security: "merchant",
          parameters: [linkIdParam],
          ok: { description: "The deactivated link", schema: paymentLinkView },
          errors: [...MERCHANT, ...PARAMS, "payment_link_not_found"],
        }),
      },
      "/api/banks": {
        get: operation({
          summary: "Banks of a country",
          parameters: [
            { name: "country", in: "query", required: true, schema: { type: "string", pattern: "^[A-Z]{2}$" } },
            {
              name: "If-None-Match",
              in: "header",
              required: false,
              schema: { type: "string" },
              description: "The ETag of a list held",
            },
          ],
          ok: { description: "Banks, popular first", schema: contract.banksResponse },
          headers: {
            ETag: {
              schema: { type: "string" },
              description: "Strong; the same for every payer while the list is unchanged",
            },
            "Cache-Control": {
              schema: { type: "string" },
              description: "public, max-age=300, s-maxage=300, stale-while-revalidate=600",
            },
          },
          more: { "304": { description: "Not modified: the list held (If-None-Match) is the current one" } },
          errors: [...PARAMS, "banks_unavailable"],
        }),
      },
      "/api/backoffice/checkouts": {
        get: operation({
          summary: "The back office's checkout list (newest first, 25 a page)",
          security: "staff",
          parameters: queryParams(checkoutFilter),
          ok: { description: "One page of checkouts", schema: contract.staffListing },
          errors: [...STAFF, ...PARAMS],
        }),
      },
      "/api/backoffice/checkouts/{checkoutId}": {
        get: operation({
          summary: "Everything staff see about one checkout",
          security: "staff",
          parameters: [idParam],
          ok: {
            description: "The checkout with attempts, timeline, webhooks, notifications and refunds",
            schema: contract.staffDetail,
          },
          errors: [...STAFF, ...PARAMS, "checkout_not_found"],
        }),
      },
      "/api/backoffice/activity": {
        get: operation({
          summary: "The audit trail as CSV, newest first, at most 5000 rows (admins)",
          security: "staff",
          parameters: queryParams(activityQuery),
          ok: {
            description: "CSV: time, actor, action, target, outcome, detail, client address",
            textType: "text/csv",
          },
          errors: [...STAFF, ...PARAMS],
        }),
      },
      "/api/webhooks/pis": {
        post: operation({
          summary: "Provider webhooks (signed); anything but 200 makes the provider deliver again",
          ok: { description: "Taken: no body, what was done with it in the Webhook-Outcome header" },
          headers: {
            "Webhook-Outcome": {
              schema: { type: "string" },
              description: "applied (the payment or refund moved), or unchanged (a repeat, or a status already passed)",
            },
          },
          errors: [
            "body_too_large",
            "invalid_body",
            "webhook_malformed",
            "webhook_unsigned",
            "webhook_unknown_payment",
            "provider_error",
            "rate_limited",
          ],
        }),
      },
      "/api/health": {
        get: operation({
          summary: "Liveness: the process answers (nothing about its dependencies)",
          ok: { description: "Alive", schema: contract.liveness },
          errors: [],
        }),
      },
      "/api/metrics": {
        get: operation({
          summary:
            'This instance\'s metrics in the Prometheus text format (README "Metrics"): with METRICS_TOKEN, or from this machine; never cached',
          security: "metrics",
          ok: { description: "The Prometheus exposition (text format 0.0.4)", textType: "text/plain" },
          errors: ["unauthorized"],
        }),
      },
      "/api/health/ready": {
        get: operation({
          summary: "Readiness: the database answers (else 503); the provider's reachability in the body",
          ok: { description: "Ready or degraded", schema: contract.readinessView },
          more: {
            "503": { description: "Not ready: the database does not answer", content: json(contract.readinessView) },
          },
          errors: [],
        }),
      },
    },
  };
}

/** Where the payer's own pages send their requests: their refusals are the ones a payer may read. */
const PAYER_PATHS = [
  "/api/checkouts/{checkoutId}/payments",
  "/api/checkouts/{checkoutId}/payments/abandon",
  "/api/checkouts/{checkoutId}/saved-account",
  "/api/checkouts/{checkoutId}/status",
  "/api/banks",
] as const;

let payerCodes: ErrorCode[] | undefined;

/**
 * Every code the payer's pages can be answered with, by the document's own lists: the words the
 * page carries for them (the others, a merchant's or staff's, would be dead weight in every page).
 */
export function payerErrorCodes(): ErrorCode[] {
  if (payerCodes) return payerCodes;
  const paths: Record<string, Record<string, { "x-error-codes"?: ErrorCode[] }>> = openApiDocument("").paths;
  const codes = PAYER_PATHS.flatMap((p) => Object.values(paths[p] ?? {}).flatMap((op) => op["x-error-codes"] ?? []));
  return (payerCodes = [...new Set([...codes, ...PAGE_ERRORS])].sort());
}
