import type { paymentStats } from "@/lib/checkout/backoffice";
import { CHECKOUT_STATUSES, type CheckoutStatus } from "@/lib/checkout/types";
import { STATUS_LABELS } from "./format";
import { ScrollArea } from "./ScrollArea";
import styles from "./backoffice.module.css";

type Stats = Awaited<ReturnType<typeof paymentStats>>;

/*
 * Every fill reaches at least 3:1 on white (WCAG 1.4.11) and has its own pattern, so a status can
 * be told apart without seeing colour; the legend and the tables say it in words.
 */
interface Look {
  colour: string;
  pattern: "solid" | "diagonal" | "dots" | "horizontal" | "cross" | "vertical";
}

const LOOKS: Record<CheckoutStatus, Look> = {
  paid: { colour: "#166534", pattern: "solid" }, // 7.1:1
  failed: { colour: "#b91c1c", pattern: "diagonal" }, // 6.5:1
  processing: { colour: "#1d4ed8", pattern: "dots" }, // 6.7:1
  open: { colour: "#4b5563", pattern: "horizontal" }, // 7.5:1
  expired: { colour: "#92400e", pattern: "cross" }, // 6.8:1
  cancelled: { colour: "#6d28d9", pattern: "vertical" }, // 7.1:1
};

// Stacked bottom to top: settled outcomes first, then what is still moving.
const STACK_ORDER: CheckoutStatus[] = ["paid", "failed", "cancelled", "expired", "processing", "open"];

const patternId = (status: CheckoutStatus) => `bo-fill-${status}`;

function PatternDefs() {
  return (
    <defs>
      {CHECKOUT_STATUSES.map((status) => {
        const { colour, pattern } = LOOKS[status];
        return (
          <pattern key={status} id={patternId(status)} width="6" height="6" patternUnits="userSpaceOnUse">
            <rect width="6" height="6" fill={colour} />
            {pattern === "diagonal" && <path d="M-1,1 l2,-2 M0,6 l6,-6 M5,7 l2,-2" stroke="#fff" strokeWidth="1.2" />}
            {pattern === "dots" && <circle cx="3" cy="3" r="1.1" fill="#fff" />}
            {pattern === "horizontal" && <path d="M0,3 h6" stroke="#fff" strokeWidth="1.2" />}
            {pattern === "vertical" && <path d="M3,0 v6" stroke="#fff" strokeWidth="1.2" />}
            {pattern === "cross" && <path d="M0,0 l6,6 M6,0 l-6,6" stroke="#fff" strokeWidth="1" />}
          </pattern>
        );
      })}
    </defs>
  );
}

function Swatch({ status }: { status: CheckoutStatus }) {
  return (
    <svg className={styles.swatch} viewBox="0 0 18 14" aria-hidden="true" focusable="false">
      <rect width="18" height="14" fill={`url(#${patternId(status)})`} />
    </svg>
  );
}

/** The UTC days from `since` to today, oldest first ("2025-03-02"). */
function daysSince(sinceIso: string, now = new Date()): string[] {
  const days: string[] = [];
  const cursor = new Date(`${sinceIso.slice(0, 10)}T00:00:00Z`);
  const last = now.toISOString().slice(0, 10);
  while (days.length < 400) {
    const day = cursor.toISOString().slice(0, 10);
    days.push(day);
    if (day >= last) break;
    cursor.setUTCDate(cursor.getUTCDate() + 1);
  }
  return days;
}

function niceStep(max: number): number {
  for (const step of [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10_000]) {
    if (max / step <= 5) return step;
  }
  return Math.ceil(max / 5);
}

const shortDay = (day: string) => {
  const d = new Date(`${day}T00:00:00Z`);
  return d.toLocaleDateString("en-GB", { day: "numeric", month: "short", timeZone: "UTC" });
};

interface ChartProps {
  stats: Stats;
  bankNames: Record<string, string>;
}

/** Checkouts of the last 30 days per day by status (stacked bars), and payment attempts by bank. */
export function PaymentsChart({ stats, bankNames }: ChartProps) {
  const days = daysSince(stats.since);
  const perDay = new Map<string, Record<CheckoutStatus, number>>();
  for (const day of days) perDay.set(day, { open: 0, processing: 0, paid: 0, failed: 0, expired: 0, cancelled: 0 });
  const totals: Record<CheckoutStatus, number> = { open: 0, processing: 0, paid: 0, failed: 0, expired: 0, cancelled: 0 };
  for (const row of stats.byDay) {
    const counts = perDay.get(row.day);
    const status = row.status as CheckoutStatus;
    if (!counts || !(status in counts)) continue;
    counts[status] += Number(row.count);
    totals[status] += Number(row.count);
  }
  const total = Object.values(totals).reduce((a, b) => a + b, 0);
  const summary =
    total === 0
      ? "No checkouts in the last 30 days."
      : `${total} checkout${total === 1 ? "" : "s"} in the last 30 days: ${STACK_ORDER.filter((s) => totals[s] > 0)
          .map((s) => `${totals[s]} ${STATUS_LABELS[s].toLowerCase()}`)
          .join(", ")}.`;

  // Geometry of the SVG (user units; it scales to the card's width).
  const left = 36;
  const top = 10;
  const plotHeight = 180;
  const slot = 22;
  const barWidth = 14;
  const width = left + days.length * slot + 8;
  const height = top + plotHeight + 28;
  const maxDay = Math.max(1, ...days.map((d) => Object.values(perDay.get(d)!).reduce((a, b) => a + b, 0)));
  const step = niceStep(maxDay);
  const yMax = Math.ceil(maxDay / step) * step;
  const y = (value: number) => top + plotHeight - (value / yMax) * plotHeight;
  const ticks: number[] = [];
  for (let t = 0; t <= yMax; t += step) ticks.push(t);
  const activeDays = days.filter((d) => Object.values(perDay.get(d)!).some((n) => n > 0));

  return (
    <section className="card" aria-labelledby="chart-heading">
      <h2 id="chart-heading">Last 30 days</h2>
      {/* The fills, defined once for the chart, the legend and the bank bars. */}
      <svg width="0" height="0" className={styles.defs} aria-hidden="true" focusable="false">
        <PatternDefs />
      </svg>
      <div className={styles.chartGrid}>
        <figure className={styles.figure}>
          <figcaption>
            <strong>Checkouts per day by status.</strong> <span className="muted">{summary}</span>
          </figcaption>
          {total > 0 && (
            <>
              <svg
                className={styles.chart}
                viewBox={`0 0 ${width} ${height}`}
                role="img"
                aria-label={`Stacked bar chart of checkouts per day by status. ${summary} The table under the chart gives the numbers per day.`}
              >
                {ticks.map((t) => (
                  <g key={t}>
                    <line className={styles.gridLine} x1={left} x2={width - 4} y1={y(t)} y2={y(t)} />
                    <text className={styles.axisText} x={left - 6} y={y(t) + 4} textAnchor="end">
                      {t}
                    </text>
                  </g>
                ))}
                <line className={styles.axisLine} x1={left} x2={width - 4} y1={y(0)} y2={y(0)} />
                {days.map((day, i) => {
                  const counts = perDay.get(day)!;
                  const x = left + i * slot + (slot - barWidth) / 2;
                  let base = 0;
                  return (
                    <g key={day}>
                      {STACK_ORDER.filter((s) => counts[s] > 0).map((status) => {
                        const y0 = y(base);
                        base += counts[status];
                        const y1 = y(base);
                        return (
                          <rect key={status} x={x} y={y1} width={barWidth} height={Math.max(0, y0 - y1)} fill={`url(#${patternId(status)})`} stroke="#fff" strokeWidth="1">
                            <title>{`${day}: ${counts[status]} ${STATUS_LABELS[status].toLowerCase()}`}</title>
                          </rect>
                        );
                      })}
                      {(i % 5 === 0 || i === days.length - 1) && (
                        <text className={styles.axisText} x={x + barWidth / 2} y={top + plotHeight + 18} textAnchor="middle">
                          {shortDay(day)}
                        </text>
                      )}
                    </g>
                  );
                })}
              </svg>
              <ul className={styles.legend} aria-label="Legend">
                {STACK_ORDER.map((status) => (
                  <li key={status}>
                    <Swatch status={status} />
                    {STATUS_LABELS[status]} ({totals[status]})
                  </li>
                ))}
              </ul>
              <details className={styles.details}>
                <summary>Show the numbers per day</summary>
                <ScrollArea label="Checkouts per day table">
                  <table className={styles.table}>
                    <caption>Checkouts per day by status (days with checkouts, UTC)</caption>
                    <thead>
                      <tr>
                        <th scope="col">Day</th>
                        {STACK_ORDER.map((s) => (
                          <th scope="col" key={s} className={styles.num}>
                            {STATUS_LABELS[s]}
                          </th>
                        ))}
                        <th scope="col" className={styles.num}>
                          Total
                        </th>
                      </tr>
                    </thead>
                    <tbody>
                      {activeDays.map((day) => {
                        const counts = perDay.get(day)!;
                        return (
                          <tr key={day}>
                            <th scope="row" className={styles.nowrap}>
                              {day}
                            </th>
                            {STACK_ORDER.map((s) => (
                              <td key={s} className={styles.num}>
                                {counts[s]}
                              </td>
                            ))}
                            <td className={styles.num}>{Object.values(counts).reduce((a, b) => a + b, 0)}</td>
                          </tr>
                        );
                      })}
                    </tbody>
                  </table>
                </ScrollArea>
              </details>
            </>
          )}
        </figure>
        <BankBreakdown stats={stats} bankNames={bankNames} />
      </div>
    </section>
  );
}

interface BankRow {
  key: string;
  label: string;
  completed: number;
  failed: number;
  inProgress: number;
  total: number;
}

const BANK_LOOKS = {
  completed: "paid",
  failed: "failed",
  inProgress: "processing",
} as const satisfies Record<string, CheckoutStatus>;

/** Payment attempts by bank: a table with a small stacked bar per bank (the numbers are the cells). */
function BankBreakdown({ stats, bankNames }: ChartProps) {
  const rows = new Map<string, BankRow>();
  for (const r of stats.byBank) {
    const key = r.bankId ?? "";
    const row = rows.get(key) ?? {
      key,
      label: r.bankId ? (bankNames[r.bankId] ?? r.bankId) : "Not chosen on our page",
      completed: 0,
      failed: 0,
      inProgress: 0,
      total: 0,
    };
    const n = Number(r.count);
    if (r.status === "completed") row.completed += n;
    else if (r.status === "failed") row.failed += n;
    else row.inProgress += n;
    row.total += n;
    rows.set(key, row);
  }
  const sorted = [...rows.values()].sort((a, b) => b.total - a.total || a.label.localeCompare(b.label));
  const most = Math.max(1, ...sorted.map((r) => r.total));

  return (
    <div className={styles.bankBreakdown}>
      <h3>Payments by bank</h3>
      {sorted.length === 0 ? (
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
              {sorted.map((row) => {
                let x = 0;
                return (
                  <tr key={row.key}>
                    <th scope="row">{row.label}</th>
                    <td className={styles.num}>{row.completed}</td>
                    <td className={styles.num}>{row.failed}</td>
                    <td className={styles.num}>{row.inProgress}</td>
                    <td className={styles.num}>{row.total}</td>
                    <td>
                      <svg className={styles.bankBar} viewBox="0 0 100 14" preserveAspectRatio="none" aria-hidden="true" focusable="false">
                        {(["completed", "failed", "inProgress"] as const).map((part) => {
                          const w = (row[part] / most) * 100;
                          const rect = w > 0 ? <rect key={part} x={x} y="0" width={w} height="14" fill={`url(#${patternId(BANK_LOOKS[part])})`} stroke="#fff" strokeWidth="0.5" /> : null;
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
