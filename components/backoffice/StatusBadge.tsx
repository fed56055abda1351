import type { CheckoutStatus } from "@/lib/checkout/types";
import { STATUS_LABELS } from "./format";
import styles from "./backoffice.module.css";

/** A checkout's status as a word in a tinted pill: the word carries the meaning, not the colour. */
export function StatusBadge({ status }: { status: CheckoutStatus }) {
  return (
    <span className={`${styles.badge} ${styles[`badge-${status}`] ?? ""}`}>{STATUS_LABELS[status] ?? status}</span>
  );
}
