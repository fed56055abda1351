import type { ReactNode } from "react";
import { formatDateTime } from "./format";
import styles from "./backoffice.module.css";

/** The small pieces every card of the checkout page uses. */

export function Time({ iso, seconds = true }: { iso: string; seconds?: boolean }) {
  return (
    <time dateTime={iso} className={styles.nowrap}>
      {formatDateTime(iso, seconds)}
    </time>
  );
}

export const None = () => <span className="muted">None</span>;

/** A provider or system code in monospace, or "None". */
export const Code = ({ value }: { value: string | null | undefined }) =>
  value ? <span className={styles.code}>{value}</span> : <None />;

/** One card of the page, named by its heading. */
export function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="card" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`} className={styles.sectionHeading}>
        {title}
      </h2>
      {children}
    </section>
  );
}
