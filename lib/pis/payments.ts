import { initiatePaymentResponse, payment, paymentStatus } from "./schemas";
import { normaliseStatus } from "./status";
import type { Transport } from "./transport";

export interface InitiatePaymentInput {
  amount: string;
  currencyCode: string;
  description: string;
  endToEndId: string;
  creditorName: string;
  creditorIban: string;
  email?: string;
  /** The payer's bank chosen on our page; absent lets the payer choose on the provider's page. */
  bankId?: string;
  redirectPreferred?: boolean;
  lang?: string;
  redirectUrl: string;
  webhookUrl?: string;
}

export function paymentsApi(request: Transport) {
  return {
    /** POST /pis/payment. Never retried here: a lost answer may still mean a created payment. */
    initiate: async (input: InitiatePaymentInput) => {
      const res = await request({
        operation: "initiatePayment",
        method: "POST",
        path: "/pis/payment",
        query: { bankId: input.bankId, redirectPreferred: input.redirectPreferred, lang: input.lang },
        headers: { "Redirect-URL": input.redirectUrl, "Webhook-URL": input.webhookUrl },
        body: {
          amount: input.amount,
          currencyCode: input.currencyCode,
          description: input.description,
          bankPaymentMethod: {
            endToEndId: input.endToEndId,
            creditorName: input.creditorName,
            creditorAccount: { iban: input.creditorIban },
          },
          ...(input.email ? { identifier: { email: input.email } } : {}),
        },
        schema: initiatePaymentResponse,
      });
      return { ...res, status: normaliseStatus({ ...res, group: res.statusGroup }) };
    },
    get: async (paymentId: string) => {
      const res = await request({
        operation: "getPayment",
        method: "GET",
        path: `/pis/payment/${encodeURIComponent(paymentId)}`,
        schema: payment,
      });
      return { ...res, status: normaliseStatus({ ...res, group: res.statusGroup }) };
    },
    status: async (paymentId: string) => {
      const res = await request({
        operation: "getPaymentStatus",
        method: "GET",
        path: `/pis/payment/${encodeURIComponent(paymentId)}/status`,
        schema: paymentStatus,
      });
      return normaliseStatus(res);
    },
  };
}
