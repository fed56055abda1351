import { useSyncExternalStore } from "react";
import type { CheckoutStatusView } from "@/lib/checkout/contract";

/**
 * The checkout's status as the page's pollers last read it (the QR hand-off on a wide screen, the
 * payment in flight), for the payment card, which ends in place when the checkout has ended. A
 * store of its own rather than react-query's cache, which is not in the page's first load (ADR 26).
 */
const views = new Map<string, CheckoutStatusView>();
const listeners = new Set<() => void>();

export function reportStatus(checkoutId: string, view: CheckoutStatusView): void {
  if (views.get(checkoutId) === view) return;
  views.set(checkoutId, view);
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

/** The last status read of this checkout, if any poller has read one. */
export function useReportedStatus(checkoutId: string): CheckoutStatusView | undefined {
  return useSyncExternalStore(
    subscribe,
    () => views.get(checkoutId),
    () => undefined,
  );
}
