import type { StatusGroup } from "./schemas";

export type StatusKind = "bank" | "card" | "hybrid";

/** One status, whatever method or API version produced it. */
export interface NormalisedStatus {
  group: StatusGroup;
  kind: StatusKind;
  /** The provider's own code for that kind, e.g. "ACSC" or "payment_success"; null if absent. */
  code: string | null;
  errorCodes: number[];
}

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
  if (s.hybridStatus !== undefined) return { group: s.group, kind: "hybrid", code: s.hybridStatus, errorCodes };
  return { group: s.group, kind: "bank", code: s.bankStatus ?? s.status ?? null, errorCodes };
}
