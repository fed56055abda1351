import { PisError } from "./errors";
import { initiatePaymentResponse, payment, paymentStatus, type InitiatePaymentResponse, type Payment } from "./schemas";
import { normaliseStatus, type NormalisedStatus } from "./status";
import { bearer, type Transport } from "./transport";
import { psuHeaders, type Psu, type VersionProfile } from "./versions";

/**
 * How long a payment's confirmLink can still be followed (provider-api.md section 10: 7 days):
 * past it, the payer can no longer approve a payment they left unconfirmed.
 */
export const CONFIRM_LINK_LIFETIME_MS = 7 * 24 * 3600 * 1000;

/** How the payer may pay: by bank transfer, by card, or either, chosen on the hosted page. */
export type PaymentMethodChoice = "bank" | "card" | "hybrid";

export interface InitiatePaymentInput {
  /** Decimal string with a `.` and at most two decimals, e.g. "12.50". Never a number. */
  amount: string;
  currencyCode: string;
  description: string;
  endToEndId: string;
  creditorName: string;
  creditorIban: string;
  debtorIban?: string;
  informationStructured?: { reference: string; referenceType?: string };
  /** yyyy-MM-dd */
  requestedExecutionDate?: string;
  email?: string;
  /** Default "bank". "card" and "hybrid" need v0.3 and "card" among the project's payment methods. */
  method?: PaymentMethodChoice;
  /** The payer's bank chosen on our page; absent lets the payer choose on the provider's page. */
  bankId?: string;
  /** Skip the provider's own screens where possible and go straight to the bank. */
  redirectPreferred?: boolean;
  /** Language of the hosted page, e.g. "lt". */
  lang?: string;
  /** Country of the hosted page's bank choice, instead of the one guessed from the payer's IP. */
  countryCode?: string;
  /** A linked account's access token (auth.exchangeCode): a one-click payment from that account. */
  accessToken?: string;
  redirectUrl: string;
  /** Kept byte for byte: the provider signs its webhooks over this exact string. */
  webhookUrl?: string;
}

export interface PaymentReadOptions {
  /** Sent as PSU headers in v0.1 (IP address only) and v0.2; ignored from v0.3 on. */
  psu?: Psu;
}

export type InitiatedPayment = InitiatePaymentResponse & { status: NormalisedStatus };
export type PaymentWithStatus = Payment & { status: NormalisedStatus };

export function paymentsApi(request: Transport, profile: VersionProfile) {
  const paymentPath = (id: string) => `/pis/payment/${encodeURIComponent(id)}`;

  return {
    /** POST /pis/payment. Never retried: a lost answer may still mean a created payment. */
    initiate: async (input: InitiatePaymentInput): Promise<InitiatedPayment> => {
      const method = input.method ?? "bank";
      if (method !== "bank" && !profile.cardPayments) {
        throw new PisError({
          kind: "unsupported",
          operation: "initiatePayment",
          description: `${method} payments need API v0.3; ${profile.version} has bank payments only`,
        });
      }
      const res = await request({
        operation: "initiatePayment",
        method: "POST",
        path: "/pis/payment",
        query: {
          bankId: input.bankId,
          redirectPreferred: input.redirectPreferred,
          paymentMethodPreferred: method === "card" ? "card" : undefined,
          lang: input.lang,
          countryCode: input.countryCode,
        },
        headers: {
          "Redirect-URL": input.redirectUrl,
          "Webhook-URL": input.webhookUrl,
          Authorization: input.accessToken === undefined ? undefined : bearer(input.accessToken),
        },
        body: paymentRequestBody(profile, input),
        schema: initiatePaymentResponse,
      });
      return { ...res, status: normaliseStatus({ ...res, group: res.statusGroup }) };
    },

    /** GET /pis/payment/{id}: the payment, bank details under bankPaymentMethod in every version. */
    get: async (paymentId: string, opts: PaymentReadOptions = {}): Promise<PaymentWithStatus> => {
      const res = await request({
        operation: "getPayment",
        method: "GET",
        path: paymentPath(paymentId),
        headers: psuHeaders(opts.psu, profile.paymentReadPsu),
        schema: payment,
      });
      return { ...res, status: normaliseStatus({ ...res, group: res.statusGroup }) };
    },

    /** GET /pis/payment/{id}/status, the cheaper read when only the status matters. */
    status: async (paymentId: string, opts: PaymentReadOptions = {}): Promise<NormalisedStatus> => {
      const res = await request({
        operation: "getPaymentStatus",
        method: "GET",
        path: `${paymentPath(paymentId)}/status`,
        headers: psuHeaders(opts.psu, profile.paymentReadPsu),
        schema: paymentStatus,
      });
      return normaliseStatus(res);
    },
  };
}

/** The body of POST /pis/payment in the version's shape. */
export function paymentRequestBody(profile: VersionProfile, input: InitiatePaymentInput): Record<string, unknown> {
  const identifier = input.email ? { identifier: { email: input.email } } : {};
  const bankDetails = {
    endToEndId: input.endToEndId,
    creditorName: input.creditorName,
    creditorAccount: { iban: input.creditorIban },
    ...(input.debtorIban !== undefined && { debtorAccount: { iban: input.debtorIban } }),
    ...(input.informationStructured !== undefined && { informationStructured: input.informationStructured }),
    ...(input.requestedExecutionDate !== undefined && { requestedExecutionDate: input.requestedExecutionDate }),
  };
  if (profile.paymentBody === "flat") {
    return {
      ...bankDetails,
      // The first API had no `description`; the payer's bank shows the unstructured remittance text.
      informationUnstructured: input.description,
      currencyCode: input.currencyCode,
      amount: input.amount,
      ...identifier,
    };
  }
  const method = input.method ?? "bank";
  return {
    amount: input.amount,
    currencyCode: input.currencyCode,
    description: input.description,
    bankPaymentMethod: bankDetails,
    // An empty object enables the card flow; with no preference on the query it makes a hybrid
    // payment, where the payer picks bank or card on the hosted page (provider-api.md 4.2).
    ...(method !== "bank" && { cardPaymentMethod: {} }),
    ...identifier,
  };
}
