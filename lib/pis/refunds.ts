import { list, refund, type Refund } from "./schemas";
import type { Transport } from "./transport";

export interface CreateRefundInput {
  /** Decimal string, e.g. "5.00"; refunds may be partial and repeated up to the payment amount. */
  amount: string;
  /** Where the PAYMENT_REFUND webhook goes; kept byte for byte for the signature. */
  webhookUrl?: string;
}

export function refundsApi(request: Transport) {
  const path = (paymentId: string) => `/pis/payment/${encodeURIComponent(paymentId)}/refunds`;
  return {
    /** POST /pis/payment/{id}/refunds. Never retried: a lost answer may still mean a refund. */
    create: (paymentId: string, input: CreateRefundInput): Promise<Refund> =>
      request({
        operation: "initiatePaymentRefund",
        method: "POST",
        path: path(paymentId),
        headers: { "Webhook-URL": input.webhookUrl },
        body: { amount: input.amount },
        schema: refund,
      }),

    /** GET /pis/payment/{id}/refunds: every refund of the payment, whatever its status. */
    list: async (paymentId: string): Promise<Refund[]> =>
      (await request({ operation: "getPaymentRefunds", method: "GET", path: path(paymentId), schema: list(refund) }))
        .data,
  };
}
