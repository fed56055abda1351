"use client";

import { lazy, Suspense, useSyncExternalStore } from "react";

/** The width from which the page shows the QR code (globals.css). */
const WIDE = "(min-width: 960px)";

function subscribe(onChange: () => void) {
  const query = window.matchMedia(WIDE);
  query.addEventListener("change", onChange);
  return () => query.removeEventListener("change", onChange);
}

// With react-query: fetched only on a screen wide enough to show the QR code (ADR 26).
const QrHandoffPoll = lazy(() => import("./QrHandoffPoll"));

/**
 * The other half of the QR hand-off: while this page shows the QR code and the payer pays on the
 * phone, the page asks whether the checkout has ended (QrHandoffPoll). Nothing on a phone, where
 * no QR code shows.
 */
export function QrHandoff({ checkoutId }: { checkoutId: string }) {
  const wide = useSyncExternalStore(
    subscribe,
    () => window.matchMedia(WIDE).matches,
    () => false,
  );
  return wide ? (
    <Suspense fallback={null}>
      <QrHandoffPoll checkoutId={checkoutId} />
    </Suspense>
  ) : null;
}
