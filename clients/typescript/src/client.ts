import { segment, Transport, type CallOptions, type ClientOptions } from "./http.ts";
import type {
  Checkout,
  CheckoutList,
  CheckoutStatusView,
  CreateCheckoutParams,
  CreatedCheckout,
  CreateRefundParams,
  ListCheckoutsParams,
  PaymentOutcome,
  Refund,
  RefundList,
} from "./types.ts";

/**
 * The merchant API, typed from the app's own OpenAPI document (schema.ts). Every call has a
 * timeout, every POST an Idempotency-Key, and failures throw BankCheckoutError.
 */
export class BankCheckout {
  readonly checkouts;
  readonly refunds;
  /** Sandbox mode only: the app answers 404 `not_found` with a real provider. */
  readonly testHelpers;

  constructor(options: ClientOptions) {
    const api = new Transport(options);
    // Methods are async so that a bad id rejects like every other failure, instead of throwing.
    const checkout = (id: string) => `/api/checkouts/${segment(id)}`;

    this.checkouts = {
      /** Creates a checkout; send the payer to its `url`. */
      create: async (params: CreateCheckoutParams, options?: CallOptions) =>
        api.request<CreatedCheckout>({ method: "POST", path: "/api/checkouts", body: params, options }),
      get: async (checkoutId: string, options?: CallOptions) =>
        api.request<Checkout>({ method: "GET", path: checkout(checkoutId), options }),
      /** Newest first, 25 a page. */
      list: async (params: ListCheckoutsParams = {}, options?: CallOptions) =>
        api.request<CheckoutList>({ method: "GET", path: "/api/checkouts", query: params, options }),
      /** The page takes no more payments; a payment the payer authorised is refused `payment_authorised`. */
      cancel: async (checkoutId: string, options?: CallOptions) =>
        api.request<Checkout>({ method: "POST", path: `${checkout(checkoutId)}/cancel`, options }),
    };

    this.refunds = {
      /** A refund whose provider call got no answer comes back with status `unknown`: do not send it again under a new key. */
      create: async (checkoutId: string, params: CreateRefundParams, options?: CallOptions) =>
        api.request<Refund>({ method: "POST", path: `${checkout(checkoutId)}/refunds`, body: params, options }),
      list: async (checkoutId: string, options?: CallOptions) =>
        api.request<RefundList>({ method: "GET", path: `${checkout(checkoutId)}/refunds`, options }),
    };

    this.testHelpers = {
      /** Has the sandbox bank pay, fail or cancel the checkout's payment, as a payer would. */
      completePayment: async (checkoutId: string, outcome: PaymentOutcome, options?: CallOptions) =>
        api.request<CheckoutStatusView>({
          method: "POST",
          path: `/api/test-helpers/checkouts/${segment(checkoutId)}/complete`,
          body: { outcome },
          options,
        }),
    };
  }
}
