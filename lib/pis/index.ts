import { banksApi } from "./banks";
import { paymentsApi } from "./payments";
import { createTransport, type PisConfig } from "./transport";

export { PisError, type PisErrorKind } from "./errors";
export type { Bank, Payment, PaymentStatus, StatusGroup, InitiatePaymentResponse } from "./schemas";
export type { NormalisedStatus, StatusKind } from "./status";
export type { ApiVersion, PisConfig } from "./transport";
export type { InitiatePaymentInput } from "./payments";
export { verifyWebhook, webhookSignature, WEBHOOK_TOLERANCE_MS, type WebhookEvent, type WebhookVerdict } from "./webhook";

/** The provider client, grouped by area. Every call returns parsed data or throws PisError. */
export function createPisClient(config: PisConfig) {
  const request = createTransport(config);
  return {
    banks: banksApi(request),
    payments: paymentsApi(request),
  };
}

export type PisClient = ReturnType<typeof createPisClient>;
