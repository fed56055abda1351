import type { StatusGroup, StatusKind } from "./store";
import { supports, type ApiVersion } from "./versions";

/**
 * Status codes and their groups (provider-api.md 5, ADR 6). Only STRD, ACSC and CANC are anchored
 * by the reference; the other groups are the sandbox's reading of ISO 20022 and the card
 * lifecycle, listed in README.md.
 */

export const STATUS_GROUPS: readonly StatusGroup[] = ["started", "pending", "completed", "failed"];

export const BANK_STATUSES = [
  "STRD",
  "ACCC",
  "ACCP",
  "ACSC",
  "ACSP",
  "ACTC",
  "ACWC",
  "ACWP",
  "RCVD",
  "PDNG",
  "RJCT",
  "CANC",
  "ACFC",
  "PATC",
] as const;

const BANK_GROUPS: Readonly<Record<string, StatusGroup>> = {
  STRD: "started",
  ACTC: "pending",
  ACSP: "pending",
  ACCP: "pending",
  ACWC: "pending",
  ACWP: "pending",
  RCVD: "pending",
  PDNG: "pending",
  PATC: "pending",
  ACFC: "pending",
  ACSC: "completed",
  ACCC: "completed",
  CANC: "failed",
  RJCT: "failed",
};

const CARD_GROUPS: Readonly<Record<string, StatusGroup>> = {
  started: "started",
  issued: "started",
  invoice_viewed: "started",
  in_progress: "pending",
  hold: "pending",
  received: "pending",
  refund_in_progress: "pending",
  reversal_in_progress: "pending",
  paid: "completed",
  payment_success: "completed",
  completed: "completed",
  partially_refunded: "completed",
  refunded: "completed",
  invoice_refunded: "completed",
  invoice_refund_reversed: "completed",
  refund_failure: "completed",
  refund_init_failure: "completed",
  refund_forbidden: "completed",
  reversal_init_failure: "completed",
  reversal_failure: "completed",
  // Disputes come after a successful payment: the money did move.
  chargeback: "completed",
  representation: "completed",
  retrieval: "completed",
  prearbitration: "completed",
  good_faith: "completed",
  fraud_advice: "completed",
  payment_failure: "failed",
  cancelled: "failed",
  rejected: "failed",
  expired: "failed",
  failed: "failed",
  invoice_reversal: "failed",
};

const HYBRID_GROUPS: Readonly<Record<string, StatusGroup>> = {
  created: "started",
  cancelled: "failed",
  expired: "failed",
};

export const STATUS_CODES: Readonly<Record<StatusKind, readonly string[]>> = {
  bank: BANK_STATUSES,
  card: Object.keys(CARD_GROUPS),
  hybrid: Object.keys(HYBRID_GROUPS),
};

export function isStatusCode(kind: StatusKind, code: string): boolean {
  return STATUS_CODES[kind].includes(code);
}

/** The group of a status code; ACSP counts as completed for projects that say so (statusSettings). */
export function groupOf(kind: StatusKind, code: string, acspCompleted = false): StatusGroup {
  if (kind === "bank" && code === "ACSP" && acspCompleted) return "completed";
  const table = kind === "bank" ? BANK_GROUPS : kind === "card" ? CARD_GROUPS : HYBRID_GROUPS;
  return table[code] ?? "pending";
}

export function isFinal(group: StatusGroup): boolean {
  return group === "completed" || group === "failed";
}

/** Reason codes of GET .../status (provider-api.md 5.5) the sandbox reports. */
export const ERROR_CODES = {
  cancelledBeforeLogin: 21001,
  cancelledBeforeConfirmation: 21004,
  expired: 21100,
  rejectedByBank: 21101,
  insufficientFunds: 20017,
} as const;

/**
 * The status position of a payment's answers and webhooks: `status` until v0.3 (provider-api.md
 * 11, which wins over the seed's "replaced from v0.2 on"), then bankStatus / cardStatus /
 * hybridStatus (ADR 6).
 */
export function statusField(version: ApiVersion, kind: StatusKind, code: string): Record<string, string> {
  return supports(version, "statusKinds") ? { [`${kind}Status`]: code } : { status: code };
}
