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
