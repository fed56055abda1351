import type { paymentStats } from "@/lib/checkout/backoffice";
import type { CheckoutStatus } from "@/lib/checkout/types";
import { STATUS_LABELS } from "./format";

/**
 * The numbers behind the dashboard's charts, apart from how they are drawn: checkouts per day
 * by status, a y axis with round steps, and payment attempts per bank.
 */

export type Stats = Awaited<ReturnType<typeof paymentStats>>;
export type StatusCounts = Record<CheckoutStatus, number>;

// Stacked bottom to top: settled outcomes first, then what is still moving.
export const STACK_ORDER: CheckoutStatus[] = ["paid", "failed", "cancelled", "expired", "processing", "open"];

const zero = (): StatusCounts => ({ open: 0, processing: 0, paid: 0, failed: 0, expired: 0, cancelled: 0 });
export const sum = (counts: StatusCounts) => Object.values(counts).reduce((a, b) => a + b, 0);

/** The UTC days from `since` to today, oldest first ("2025-03-02"). */
export function daysSince(sinceIso: string, now = new Date()): string[] {
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

/** Checkouts per day and status, every day of the period present, with totals and a sentence for screen readers. */
export function dailyCounts(stats: Stats, now = new Date()) {
  const days = daysSince(stats.since, now);
  const perDay = new Map(days.map((day) => [day, zero()]));
  const totals = zero();
  for (const row of stats.byDay) {
    const counts = perDay.get(row.day);
    const status = row.status as CheckoutStatus;
    if (!counts || !(status in counts)) continue;
    counts[status] += Number(row.count);
    totals[status] += Number(row.count);
  }
  const total = sum(totals);
  const summary =
    total === 0
      ? "No checkouts in the last 30 days."
      : `${total} checkout${total === 1 ? "" : "s"} in the last 30 days: ${STACK_ORDER.filter((s) => totals[s] > 0)
          .map((s) => `${totals[s]} ${STATUS_LABELS[s].toLowerCase()}`)
          .join(", ")}.`;
  const activeDays = days.filter((d) => sum(perDay.get(d)!) > 0);
  return { days, perDay, totals, total, summary, activeDays };
}

/** A y axis from 0 with at most about five round steps (1, 2, 5, 10, 20, 25, ...) that fits `max`. */
export function yAxis(max: number): { yMax: number; ticks: number[] } {
  const step =
    [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10_000].find((s) => max / s <= 5) ??
    Math.ceil(max / 5);
  const yMax = Math.ceil(Math.max(1, max) / step) * step;
  const ticks: number[] = [];
  for (let t = 0; t <= yMax; t += step) ticks.push(t);
  return { yMax, ticks };
}

export interface BankRow {
  key: string;
  label: string;
  completed: number;
  failed: number;
  inProgress: number;
  total: number;
}

/** Payment attempts per bank and outcome, most used first; attempts without a bank chosen on our page are one row. */
export function bankRows(stats: Stats, bankNames: Record<string, string>): BankRow[] {
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
  return [...rows.values()].sort((a, b) => b.total - a.total || a.label.localeCompare(b.label));
}
