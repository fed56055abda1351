import type { ReactNode } from "react";
import styles from "./backoffice.module.css";

/**
 * A wide table's sideways-scrolling box. Focusable and named, so keyboard users can scroll it too
 * (WCAG 2.1.1) and screen readers say what it holds.
 */
export function ScrollArea({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className={styles.tableWrap} role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
