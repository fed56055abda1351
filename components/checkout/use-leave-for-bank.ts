import { useEffect, useRef, useState } from "react";
import { leaveTo } from "@/components/embed/frame-events";

/** How long the embedded form waits for the window to leave before it offers the link itself. */
const STUCK_AFTER_MS = 2_500;

/**
 * Leaving for the bank, with the embedded picker's fallback (ADR 20): `leave` moves the whole
 * window to the link; when it cannot be sure it did (the merchant's page refused the move, the click
 * on Pay being too long ago), `stuckLink` becomes that link 2.5 s later, for the page to offer as a
 * link with target=_top that takes a fresh click. Every way to pay that leaves for the bank uses it.
 */
export function useLeaveForBank() {
  const [stuckLink, setStuckLink] = useState<string | null>(null);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  const leave = (link: string) => {
    if (!leaveTo(link)) timer.current = window.setTimeout(() => setStuckLink(link), STUCK_AFTER_MS);
  };
  return { stuckLink, leave };
}
