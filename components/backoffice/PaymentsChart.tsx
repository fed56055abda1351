import { BankBreakdown } from "./BankBreakdown";
import { bankRows, dailyCounts, STACK_ORDER, sum, yAxis, type Stats } from "./chart-data";
import { PatternDefs, patternId, Swatch } from "./chart-looks";
import { STATUS_LABELS } from "./format";
import { ScrollArea } from "./ScrollArea";
import styles from "./backoffice.module.css";

const shortDay = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString("en-GB", { day: "numeric", month: "short", timeZone: "UTC" });

// Geometry of the SVG (user units; it scales to the card's width).
const left = 36;
const top = 10;
const plotHeight = 180;
const slot = 22;
const barWidth = 14;

/** Checkouts of the last 30 days per day by status (stacked bars), and payment attempts by bank. */
export function PaymentsChart({ stats, bankNames }: { stats: Stats; bankNames: Record<string, string> }) {
  const { days, perDay, totals, total, summary, activeDays } = dailyCounts(stats);
  const width = left + days.length * slot + 8;
  const height = top + plotHeight + 28;
  const { yMax, ticks } = yAxis(Math.max(...days.map((d) => sum(perDay.get(d)!))));
  const y = (value: number) => top + plotHeight - (value / yMax) * plotHeight;

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
                          <rect
                            key={status}
                            x={x}
                            y={y1}
                            width={barWidth}
                            height={Math.max(0, y0 - y1)}
                            fill={`url(#${patternId(status)})`}
                            stroke="#fff"
                            strokeWidth="1"
                          >
                            <title>{`${day}: ${counts[status]} ${STATUS_LABELS[status].toLowerCase()}`}</title>
                          </rect>
                        );
                      })}
                      {(i % 5 === 0 || i === days.length - 1) && (
                        <text
                          className={styles.axisText}
                          x={x + barWidth / 2}
                          y={top + plotHeight + 18}
                          textAnchor="middle"
                        >
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
                            <td className={styles.num}>{sum(counts)}</td>
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
        <BankBreakdown rows={bankRows(stats, bankNames)} />
      </div>
    </section>
  );
}
