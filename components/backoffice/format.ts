import type { CheckoutStatus, StatusGroup, StatusSource } from "@/lib/checkout/types";

/** Staff read times in UTC, the same for everyone on the team: "2025-03-02 14:05 UTC". */
export function formatDateTime(iso: string, withSeconds = false): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d
    .toISOString()
    .slice(0, withSeconds ? 19 : 16)
    .replace("T", " ")} UTC`;
}

export const STATUS_LABELS: Record<CheckoutStatus, string> = {
  open: "Open",
  processing: "Processing",
  paid: "Paid",
  failed: "Failed",
  expired: "Expired",
  cancelled: "Cancelled",
};

export const STATUS_GROUP_LABELS: Record<StatusGroup, string> = {
  started: "Started",
  pending: "Pending",
  completed: "Completed",
  failed: "Failed",
};

/** Where a status change came from (status_events.source), in words. */
const SOURCE_LABELS: Record<StatusSource, string> = {
  initiation: "Payment start",
  landing: "Landing page check",
  webhook: "Webhook",
  reconciliation: "Reconciliation",
  payer: "Payer",
  merchant: "Merchant (API)",
  staff: "Staff (back office)",
  system: "System",
};

export const sourceLabel = (source: string): string => SOURCE_LABELS[source as StatusSource] ?? source;

export function statusGroupLabel(group: string | null): string {
  if (group === null) return "Not answered yet";
  if (group === "unknown") return "Unknown: check with the provider";
  return STATUS_GROUP_LABELS[group as StatusGroup] ?? group;
}

/** Who made a refund (its `createdBy`). */
export const REFUND_MADE_BY: Record<string, string> = {
  "merchant-api": "Merchant API",
  staff: "Staff",
  provider: "At the provider",
};

export const METHOD_LABELS: Record<string, string> = { bank: "Bank", card: "Card", hybrid: "Bank or card" };

/** A webhook's stored outcome ("applied", "rejected_signature", ...) as words. */
export function outcomeLabel(outcome: string): string {
  const words = outcome.replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}
