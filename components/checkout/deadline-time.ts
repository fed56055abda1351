import type { Locale } from "@/lib/checkout/types";

// Plain values, apart from Deadline.tsx: the server's PaymentSection reads them, and a value
// imported from a "use client" module is only a reference to it there.

/** A checkout that ends within this long shows when (WCAG 2.2.1); one that lasts longer does not. */
export const SHOW_DEADLINE_WITHIN_MS = 20 * 3600_000;
/** How long before the end the payer is told, once, that the time is nearly up. */
export const WARN_BEFORE_MS = 2 * 60_000;

export interface Expiry {
  /** When the checkout expires (ISO 8601). */
  at: string;
  /** The server's clock as it rendered the page (ms): the end is counted by it, not by the device's. */
  serverNow: number;
  /** The time zone the server writes the time in (the checkout country's); the page uses the payer's once it runs. */
  timeZone: string;
}

export type DeadlinePhase = "open" | "soon" | "ended";

/** The deadline as the payer reads it: the time, with the weekday when it is not today. */
export function deadlineText(expiry: Expiry, locale: Locale, timeZone: string): string {
  const at = Date.parse(expiry.at);
  const day = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
  const today = day.format(at) === day.format(expiry.serverNow);
  return new Intl.DateTimeFormat(locale, {
    timeZone,
    hour: "2-digit",
    minute: "2-digit",
    ...(today ? {} : { weekday: "long" }),
  }).format(at);
}
