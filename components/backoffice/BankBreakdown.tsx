import type { CheckoutStatus } from "@/lib/checkout/types";
import type { BankRow } from "./chart-data";
import { patternId } from "./chart-looks";
import { ScrollArea } from "./ScrollArea";
import styles from "./backoffice.module.css";

const BANK_LOOKS = {
  completed: "paid",
  failed: "failed",
  inProgress: "processing",
} as const satisfies Record<string, CheckoutStatus>;

/** Payment attempts by bank: a table with a small stacked bar per bank (the numbers are the cells). */
export function BankBreakdown({ rows }: { rows: BankRow[] }) {
  const most = Math.max(1, ...rows.map((r) => r.total));

  return (
    <div className={styles.bankBreakdown}>
      <h3>Payments by bank</h3>
      {rows.length === 0 ? (
        <p className={styles.empty}>No payment attempts in the last 30 days.</p>
      ) : (
        <ScrollArea label="Payment attempts by bank table">
          <table className={styles.table}>
            <caption>Payment attempts by bank and outcome, last 30 days</caption>
            <thead>
              <tr>
                <th scope="col">Bank</th>
                <th scope="col" className={styles.num}>
                  Paid
                </th>
                <th scope="col" className={styles.num}>
                  Failed
                </th>
                <th scope="col" className={styles.num}>
                  In progress
                </th>
                <th scope="col" className={styles.num}>
                  Total
                </th>
                <th scope="col">
                  <span className="visually-hidden">Bar</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => {
                let x = 0;
                return (
                  <tr key={row.key}>
                    <th scope="row">{row.label}</th>
                    <td className={styles.num}>{row.completed}</td>
                    <td className={styles.num}>{row.failed}</td>
                    <td className={styles.num}>{row.inProgress}</td>
                    <td className={styles.num}>{row.total}</td>
                    <td>
                      <svg
                        className={styles.bankBar}
                        viewBox="0 0 100 14"
                        preserveAspectRatio="none"
                        aria-hidden="true"
                        focusable="false"
                      >
                        {(["completed", "failed", "inProgress"] as const).map((part) => {
                          const w = (row[part] / most) * 100;
                          const rect =
                            w > 0 ? (
                              <rect
                                key={part}
                                x={x}
                                y="0"
                                width={w}
                                height="14"
                                fill={`url(#${patternId(BANK_LOOKS[part])})`}
                                stroke="#fff"
                                strokeWidth="0.5"
                              />
                            ) : null;
                          x += w;
                          return rect;
                        })}
                      </svg>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </ScrollArea>
      )}
    </div>
  );
}
