"use client";

import { useEffect, useState, useSyncExternalStore } from "react";
import { format, type MessagesFor } from "@/lib/i18n/format";
import type { Locale } from "@/lib/checkout/types";
import { deadlineText, WARN_BEFORE_MS, type DeadlinePhase, type Expiry } from "./deadline-time";

/**
 * Where the checkout is in its time: open, nearly over (the last two minutes), or over. Counted
 * from when the page was loaded by the server's clock (a device's clock may be off by minutes); a
 * timer is late after the device slept, so it looks again at least every minute.
 */
export function useDeadline(expiry: Expiry | null): DeadlinePhase {
  const [phase, setPhase] = useState<DeadlinePhase>("open");
  const at = expiry?.at;
  const serverNow = expiry?.serverNow;
  useEffect(() => {
    if (at === undefined || serverNow === undefined) return;
    // From when the page was loaded (its HTML shows the deadline at once), not from when this code
    // ran, which on a slow phone, or a page restored later, may be long after.
    const loadedAt = Date.now() - performance.now();
    const end = loadedAt + (Date.parse(at) - serverNow);
    let timer = 0;
    const check = () => {
      const left = end - Date.now();
      setPhase(left <= 0 ? "ended" : left <= WARN_BEFORE_MS ? "soon" : "open");
      if (left > 0)
        timer = window.setTimeout(check, Math.min(left > WARN_BEFORE_MS ? left - WARN_BEFORE_MS : left, 60_000));
    };
    timer = window.setTimeout(check, 0);
    return () => clearTimeout(timer);
  }, [at, serverNow]);
  return phase;
}

const noChange = () => () => {};
const payersTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/**
 * "Pay by 14:32", in the page's language: in the HTML in the checkout country's time zone, then in
 * the payer's own. Two minutes before the end a polite status says so, once. Shown after the end
 * only beside a payment under way, which the end does not stop (the server never expires a
 * checkout with a payment in flight): the same status then says that it can still go through.
 */
export function Deadline({
  expiry,
  phase,
  locale,
  messages: t,
}: {
  expiry: Expiry;
  phase: DeadlinePhase;
  locale: Locale;
  messages: MessagesFor<"expiry.">;
}) {
  const timeZone = useSyncExternalStore(noChange, payersTimeZone, () => expiry.timeZone);
  const time = deadlineText(expiry, locale, timeZone);
  const said = phase === "soon" ? t["expiry.soon"] : phase === "ended" ? t["expiry.runOut"] : null;
  return (
    <>
      {phase !== "ended" && <p className="hint deadline">{format(t["expiry.deadline"], { time })}</p>}
      <p
        role="status"
        className={said ? `alert ${phase === "soon" ? "alert-warning" : "alert-info"} small` : "visually-hidden"}
      >
        {said ? format(said, { time }) : ""}
      </p>
    </>
  );
}
