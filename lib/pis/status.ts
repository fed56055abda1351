import type { StatusGroup } from "./schemas";

export type StatusKind = "bank" | "card" | "hybrid";

/** One status, whatever payment method or API version produced it. */
export interface NormalisedStatus {
  group: StatusGroup;
  /** Which of bankStatus / cardStatus / hybridStatus the provider reported. */
  kind: StatusKind;
  /** The provider's own code for that kind, e.g. "ACSC" or "payment_success"; null if absent. */
  code: string | null;
  /** `error.code[]` of the status response, e.g. [21004] for a cancel; empty elsewhere. */
  errorCodes: number[];
}

/**
 * Exactly one of the three statuses should be present (seed, section 2), but a hybrid payment
 * moves from `hybridStatus` to the bank or card status once the payer picks a method, so a more
 * specific status wins over `hybridStatus` if a provider ever sends both. `status` is v0.1's name
 * for the bank status.
 */
export function normaliseStatus(s: {
  group: StatusGroup;
  bankStatus?: string;
  cardStatus?: string;
  hybridStatus?: string;
  status?: string;
  error?: { code: number[] } | null;
}): NormalisedStatus {
  const errorCodes = s.error?.code ?? [];
  if (s.cardStatus !== undefined) return { group: s.group, kind: "card", code: s.cardStatus, errorCodes };
  const bankCode = s.bankStatus ?? s.status;
  if (bankCode !== undefined) return { group: s.group, kind: "bank", code: bankCode, errorCodes };
  if (s.hybridStatus !== undefined) return { group: s.group, kind: "hybrid", code: s.hybridStatus, errorCodes };
  return { group: s.group, kind: "bank", code: null, errorCodes };
}

/** Why a payment failed, in the checkout's words: no provider code leaves lib/pis. */
export const PAYMENT_FAILURE_REASONS = [
  "refused_by_bank",
  "cancelled_by_payer",
  "expired",
  "insufficient_funds",
  "unknown",
] as const;
export type PaymentFailureReason = (typeof PAYMENT_FAILURE_REASONS)[number];

const INSUFFICIENT_FUNDS = 20017;
const EXPIRED_BY_SYSTEM = 21100;
const REJECTED_BY_BANK = 21101;
/** 21000-21004: the payer cancelled before login, before paying or before confirming (provider-api.md 5.5). */
const cancelledByPayer = (code: number) => code >= 21000 && code <= 21004;

/**
 * Reads a failed payment's status code and `error.code[]` into a reason: the error codes are the
 * more specific, so they win; then the bank/card status names (v0.3 card statuses are words).
 */
export function failureReasonOf(status: { code: string | null; errorCodes: readonly number[] }): PaymentFailureReason {
  const codes = status.errorCodes;
  if (codes.includes(INSUFFICIENT_FUNDS)) return "insufficient_funds";
  if (codes.includes(EXPIRED_BY_SYSTEM)) return "expired";
  if (codes.includes(REJECTED_BY_BANK)) return "refused_by_bank";
  if (codes.some(cancelledByPayer)) return "cancelled_by_payer";
  switch (status.code?.toUpperCase()) {
    case "EXPIRED":
      return "expired";
    case "RJCT":
    case "PAYMENT_FAILURE":
      return "refused_by_bank";
    case "CANC":
    case "CANCELLED":
      return "cancelled_by_payer";
    default:
      return "unknown";
  }
}
