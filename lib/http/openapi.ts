import { z } from "zod";
import { checkoutFilter } from "../checkout/backoffice-filter";
import { createCheckoutInput } from "../checkout/checkouts";
import { startPaymentInput } from "../checkout/payments";
import { createRefundInput } from "../checkout/refunds";
import { startLinkingInput } from "../checkout/saved-accounts";

const schema = (s: z.ZodType) => z.toJSONSchema(s, { io: "input", unrepresentable: "any" });
const json = (s: z.ZodType | object) => ({ "application/json": { schema: s instanceof z.ZodType ? schema(s) : s } });
const problem = { description: "Refused: application/problem+json with a stable `code` and, for bad input, `errors[].path`.", content: { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } } };
const idParam = { name: "checkoutId", in: "path", required: true, schema: { type: "string" } };
const merchant = [{ merchantKey: [] }];
const staff = [{ staffSession: [] }];
const listFilterParams = () =>
  Object.entries((schema(checkoutFilter) as { properties: Record<string, object> }).properties).map(([name, s]) => ({ name, in: "query", required: false, schema: s }));

/** The OpenAPI 3.1 description of the public API, generated from the same zod schemas that parse requests. */
export function openApiDocument(serverUrl: string) {
  return {
    openapi: "3.1.0",
    info: { title: "Bank checkout API", version: "1.0.0", description: "Create checkouts for bank payments, follow them, refund them." },
    servers: [{ url: serverUrl }],
    components: {
      securitySchemes: {
        merchantKey: { type: "http", scheme: "bearer", description: "MERCHANT_API_KEY" },
        staffSession: { type: "apiKey", in: "cookie", name: "bo_session", description: "The back office's session, set by signing in at /backoffice/login" },
      },
      schemas: {
        Problem: {
          type: "object",
          required: ["type", "title", "status", "code"],
          properties: {
            type: { type: "string" }, title: { type: "string" }, status: { type: "integer" }, code: { type: "string" }, detail: { type: "string" },
            errors: { type: "array", items: { type: "object", properties: { path: { type: "string" }, message: { type: "string" } } } },
          },
        },
      },
    },
    paths: {
      "/api/checkouts": {
        post: {
          summary: "Create a checkout",
          security: merchant,
          parameters: [{ name: "Idempotency-Key", in: "header", required: false, schema: { type: "string", maxLength: 255 }, description: "A retry with the same key returns the same checkout." }],
          requestBody: { required: true, content: json(createCheckoutInput) },
          responses: { "200": { description: "Created", content: json({ type: "object", properties: { id: { type: "string" }, url: { type: "string" }, status: { type: "string" }, expiresAt: { type: "string", format: "date-time" } } }) }, "400": problem, "401": problem, "422": problem },
        },
      },
      "/api/checkouts/{checkoutId}": {
        get: { summary: "A checkout with its payment attempts", security: merchant, parameters: [idParam], responses: { "200": { description: "The checkout" }, "401": problem, "404": problem } },
      },
      "/api/checkouts/{checkoutId}/payments": {
        post: { summary: "Start a payment (payer's browser)", parameters: [idParam], requestBody: { required: true, content: json(startPaymentInput) }, responses: { "200": { description: "Go to confirmLink" }, "400": problem, "409": problem, "410": problem, "422": problem, "429": problem, "502": problem } },
      },
      "/api/checkouts/{checkoutId}/saved-account": {
        post: { summary: "Save the payer's bank account while paying (payer's browser): go to authorizationLink", parameters: [idParam], requestBody: { required: true, content: json(startLinkingInput) }, responses: { "200": { description: "Go to authorizationLink; sets the payer_handle cookie" }, "400": problem, "409": problem, "410": problem, "422": problem, "429": problem, "502": problem } },
        delete: { summary: "Forget the payer's saved bank account in this browser", parameters: [idParam], responses: { "200": { description: "{forgotten}" }, "404": problem } },
      },
      "/api/checkouts/{checkoutId}/status": {
        get: { summary: "Current status, refreshed from the provider while not final", parameters: [idParam], responses: { "200": { description: "The status" }, "404": problem } },
      },
      "/api/checkouts/{checkoutId}/refunds": {
        post: { summary: "Refund all or part of a paid checkout, or a duplicate payment of it (attemptId)", security: merchant, parameters: [idParam, { name: "Idempotency-Key", in: "header", required: false, schema: { type: "string", maxLength: 255 }, description: "A retry with the same key and request returns the first refund; the same key with another request is refused 422 idempotency_key_reused." }], requestBody: { required: true, content: json(createRefundInput) }, responses: { "200": { description: "The refund" }, "400": problem, "401": problem, "409": problem, "422": problem, "502": problem } },
        get: { summary: "Refunds of a checkout", security: merchant, parameters: [idParam], responses: { "200": { description: "The refunds" }, "401": problem, "404": problem } },
      },
      "/api/banks": {
        get: { summary: "Banks of a country", parameters: [{ name: "country", in: "query", required: true, schema: { type: "string", pattern: "^[A-Z]{2}$" } }], responses: { "200": { description: "Banks" }, "400": problem, "502": problem } },
      },
      "/api/backoffice/checkouts": {
        get: { summary: "The back office's checkout list (newest first, 25 a page)", security: staff, parameters: listFilterParams(), responses: { "200": { description: "{items, page, hasMore, bankNames}" }, "400": problem, "401": problem } },
      },
      "/api/backoffice/checkouts/{checkoutId}": {
        get: { summary: "Everything staff see about one checkout", security: staff, parameters: [idParam], responses: { "200": { description: "The checkout with attempts, timeline, webhooks, notifications and refunds" }, "401": problem, "404": problem } },
      },
      "/api/webhooks/pis": { post: { summary: "Provider webhooks (signed)", responses: { "200": { description: "Taken" }, "401": problem, "404": problem } } },
      "/api/health": { get: { summary: "Liveness: the process answers (nothing about its dependencies)", responses: { "200": { description: "{status: ok}" } } } },
      "/api/health/ready": {
        get: {
          summary: "Readiness: the database answers (else 503); the provider's reachability in the body",
          responses: { "200": { description: "{status: ready | degraded, database: ok, provider: ok | unreachable}" }, "503": { description: "{status: not_ready, database: unreachable, provider}" } },
        },
      },
    },
  };
}
