import { accountsApi } from "./accounts";
import { authApi } from "./auth";
import { banksApi } from "./banks";
import { generalApi } from "./general";
import { paymentsApi } from "./payments";
import { projectApi } from "./project";
import { refundsApi } from "./refunds";
import { createTransport, type PisConfig } from "./transport";
import { versionProfile, type ApiVersion } from "./versions";

export { PisError, type PisErrorKind, type PisErrorDetails } from "./errors";
export type {
  Account,
  AccountDetails,
  AccountReference,
  AuthStart,
  Balance,
  BalanceType,
  Bank,
  BankPaymentMethod,
  InitiatePaymentResponse,
  Payment,
  PaymentStatus,
  ProjectSettings,
  Refund,
  StatusGroup,
  Token,
  TokenContent,
  Transaction,
} from "./schemas";
export {
  failureReasonOf,
  normaliseStatus,
  PAYMENT_FAILURE_REASONS,
  type NormalisedStatus,
  type PaymentFailureReason,
  type StatusKind,
} from "./status";
export { DEFAULT_RETRY, type PisCall, type PisConfig, type RetryPolicy } from "./transport";
export { CONFIRM_LINK_LIFETIME_MS } from "./payments";
export { API_VERSIONS, type AccountPsu, type ApiVersion, type Psu, type PsuHttpMethod } from "./versions";
export type {
  InitiatePaymentInput,
  InitiatedPayment,
  PaymentMethodChoice,
  PaymentReadOptions,
  PaymentWithStatus,
} from "./payments";
export type { PaymentMethod } from "./project";
export type { CreateRefundInput } from "./refunds";
export type { AuthScope, StartAuthInput } from "./auth";
export type { TransactionRange } from "./accounts";
export {
  verifyWebhook,
  webhookSignature,
  WEBHOOK_TOLERANCE_MS,
  type VerifyWebhookInput,
  type WebhookEvent,
  type WebhookRejection,
  type WebhookVerdict,
} from "./webhook";

/**
 * The provider client, grouped by area. Every call returns parsed, typed data or throws PisError;
 * the configured version only changes what goes over the wire, never what callers get back.
 */
export function createPisClient(config: PisConfig) {
  const version: ApiVersion = config.version ?? "v0.3";
  const profile = versionProfile(version);
  const request = createTransport({ ...config, version });
  return {
    version,
    /** What this version of the API has (cards, refunds, project settings, ...). */
    profile,
    general: generalApi(request),
    banks: banksApi(request, profile),
    project: projectApi(request),
    payments: paymentsApi(request, profile),
    refunds: refundsApi(request),
    auth: authApi(request, profile),
    accounts: accountsApi(request),
  };
}

export type PisClient = ReturnType<typeof createPisClient>;
