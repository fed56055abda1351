import { segment, Transport, type CallOptions, type ClientOptions } from "./http.ts";
import type {
  Checkout,
  CheckoutList,
  CheckoutStatusView,
  CreateCheckoutParams,
  CreatedCheckout,
  CreatePaymentLinkParams,
  CreateRefundParams,
  ListCheckoutsParams,
  ListPaymentLinksParams,
  PaymentLink,
  PaymentLinkList,
  PaymentOutcome,
  Refund,
  RefundList,
} from "./types.ts";

/**
 * The merchant API, typed from the app's own OpenAPI document (schema.ts). Every call has a
 * timeout, every POST an Idempotency-Key, and failures throw BankCheckoutError. Each POST says why
 * it may be retried (`repeatable`), or is not.
 */
export class BankCheckout {
  readonly checkouts;
  readonly refunds;
  readonly paymentLinks;
  /** Sandbox mode only: the app answers 404 `not_found` with a real provider. */
  readonly testHelpers;

  constructor(options: ClientOptions) {
    const api = new Transport(options);
    // Methods are async so that a bad id rejects like every other failure, instead of throwing.
    const checkout = (id: string) => `/api/checkouts/${segment(id)}`;
    const link = (id: string) => `/api/payment-links/${segment(id)}`;

    this.checkouts = {
      /** Creates a checkout; send the payer to its `url`. The app honours the Idempotency-Key. */
      create: async (params: CreateCheckoutParams, options?: CallOptions) =>
        api.request<CreatedCheckout>({
          method: "POST",
          repeatable: true,
          path: "/api/checkouts",
          body: params,
          options,
        }),
      get: async (checkoutId: string, options?: CallOptions) =>
        api.request<Checkout>({ method: "GET", path: checkout(checkoutId), options }),
      /** Newest first, 25 a page. */
      list: async (params: ListCheckoutsParams = {}, options?: CallOptions) =>
        api.request<CheckoutList>({ method: "GET", path: "/api/checkouts", query: params, options }),
      /**
       * The page takes no more payments; a payment the payer authorised is refused
       * `payment_authorised`. Cancelling a cancelled checkout answers it again.
       */
      cancel: async (checkoutId: string, options?: CallOptions) =>
        api.request<Checkout>({ method: "POST", repeatable: true, path: `${checkout(checkoutId)}/cancel`, options }),
    };

    this.refunds = {
      /**
       * The app honours the Idempotency-Key. A refund whose provider call got no answer comes back
       * with status `unknown`: do not send it again under a new key.
       */
      create: async (checkoutId: string, params: CreateRefundParams, options?: CallOptions) =>
        api.request<Refund>({
          method: "POST",
          repeatable: true,
          path: `${checkout(checkoutId)}/refunds`,
          body: params,
          options,
        }),
      list: async (checkoutId: string, options?: CallOptions) =>
        api.request<RefundList>({ method: "GET", path: `${checkout(checkoutId)}/refunds`, options }),
    };

    this.paymentLinks = {
      /** A page payers open to pay without a call from your backend. The app honours the Idempotency-Key. */
      create: async (params: CreatePaymentLinkParams, options?: CallOptions) =>
        api.request<PaymentLink>({
          method: "POST",
          repeatable: true,
          path: "/api/payment-links",
          body: params,
          options,
        }),
      get: async (linkId: string, options?: CallOptions) =>
        api.request<PaymentLink>({ method: "GET", path: link(linkId), options }),
      /** Newest first, 200 a page. */
      list: async (params: ListPaymentLinksParams = {}, options?: CallOptions) =>
        api.request<PaymentLinkList>({ method: "GET", path: "/api/payment-links", query: params, options }),
      /** Its page answers 410 from now on. Deactivating it again answers it again. */
      deactivate: async (linkId: string, options?: CallOptions) =>
        api.request<PaymentLink>({ method: "POST", repeatable: true, path: `${link(linkId)}/deactivate`, options }),
    };

    this.testHelpers = {
      /**
       * Has the sandbox bank pay, fail or cancel the checkout's payment, as a payer would. A repeat
       * cannot pay twice (`already_paid`).
       */
      completePayment: async (checkoutId: string, outcome: PaymentOutcome, options?: CallOptions) =>
        api.request<CheckoutStatusView>({
          method: "POST",
          repeatable: true,
          path: `/api/test-helpers/checkouts/${segment(checkoutId)}/complete`,
          body: { outcome },
          options,
        }),
    };
  }
}
