import { formatMoney } from "@/components/ui/money";
import type { LinkStatus, PaymentLinkView } from "@/lib/payment-links/links";
import styles from "./backoffice.module.css";

export const LINK_STATUS_LABELS: Record<LinkStatus, string> = {
  active: "Active",
  ended: "Ended",
  used_up: "Used up",
  deactivated: "Deactivated",
};

// The checkout badges' tints, by likeness: taking payments is green like paid, ended amber like
// expired, used up blue, deactivated grey.
const TINTS: Record<LinkStatus, string> = {
  active: "badge-paid",
  ended: "badge-expired",
  used_up: "badge-processing",
  deactivated: "badge-open",
};

/** A link's status as a word in a tinted pill: the word carries the meaning, not the colour. */
export function LinkStatusBadge({ status }: { status: LinkStatus }) {
  return <span className={`${styles.badge} ${styles[TINTS[status]] ?? ""}`}>{LINK_STATUS_LABELS[status]}</span>;
}

/** "€25.00", or "Payer chooses €5.00–€500.00". */
export function linkAmountText(link: Pick<PaymentLinkView, "amount" | "payerAmount" | "currency">): string {
  if (link.amount !== null) return formatMoney(link.amount, link.currency);
  if (!link.payerAmount) return "None";
  const { min, max } = link.payerAmount;
  return `Payer chooses ${formatMoney(min, link.currency)}–${formatMoney(max, link.currency)}`;
}
