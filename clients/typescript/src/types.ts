/**
 * Names for the parts of the generated schema the client uses. Everything here is derived from
 * schema.ts, so a change of the API's document shows up as a type error, not as a stale copy.
 */
import type { components, paths, webhooks } from "./schema.ts";

type Method = "get" | "post";
type Operation<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;
type JsonOf<T> = T extends { content: { "application/json": infer Body } } ? Body : never;

/** The JSON body an operation takes. */
export type RequestBody<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { requestBody?: infer R } ? JsonOf<NonNullable<R>> : never;
/** The JSON of an operation's success answer (200, or 201 for one that makes something). */
export type Answer<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { responses: { 200: infer R } }
    ? JsonOf<R>
    : Operation<P, M> extends { responses: { 201: infer R } }
      ? JsonOf<R>
      : never;
/** The query parameters an operation takes. */
export type Query<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

export type CreateCheckoutParams = RequestBody<"/api/checkouts", "post">;
export type CreatedCheckout = Answer<"/api/checkouts", "post">;
export type ListCheckoutsParams = Query<"/api/checkouts", "get">;
export type CheckoutList = Answer<"/api/checkouts", "get">;
export type Checkout = Answer<"/api/checkouts/{checkoutId}", "get">;
export type CheckoutStatus = Checkout["status"];

export type CreateRefundParams = RequestBody<"/api/checkouts/{checkoutId}/refunds", "post">;
export type Refund = Answer<"/api/checkouts/{checkoutId}/refunds", "post">;
export type RefundList = Answer<"/api/checkouts/{checkoutId}/refunds", "get">;

export type PaymentOutcome = RequestBody<"/api/test-helpers/checkouts/{checkoutId}/complete", "post">["outcome"];
export type CheckoutStatusView = Answer<"/api/test-helpers/checkouts/{checkoutId}/complete", "post">;

export type CreatePaymentLinkParams = RequestBody<"/api/payment-links", "post">;
export type PaymentLink = Answer<"/api/payment-links/{linkId}", "get">;
export type ListPaymentLinksParams = Query<"/api/payment-links", "get">;
export type PaymentLinkList = Answer<"/api/payment-links", "get">;

/** The body of a notification the app POSTs to a checkout's notifyUrl. */
export type MerchantNotification = JsonOf<webhooks["merchantNotification"]["post"]["requestBody"]>;
export type NotificationEvent = MerchantNotification["event"];

/** An application/problem+json answer of the API. */
export type Problem = components["schemas"]["Problem"];
/** Every code of the app's error table, as the document's Problem schema lists them. */
export type ApiErrorCode = Problem["code"];
