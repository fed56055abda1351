"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect, useSyncExternalStore } from "react";
import { checkoutStatusQuery } from "@/components/query/queries";

/** The width from which the page shows the QR code (globals.css). */
const WIDE = "(min-width: 960px)";
const EVERY_MS = 5_000;

function subscribe(onChange: () => void) {
  const query = window.matchMedia(WIDE);
  query.addEventListener("change", onChange);
  return () => query.removeEventListener("change", onChange);
}

/**
 * The other half of the QR hand-off: while this page shows the QR code and the payer pays on the
 * phone, it asks every 5 s (paused while the tab is hidden) whether the checkout has ended. Paid: it
 * reloads, so the computer shows "paid" too instead of a form for an order already paid. Expired or
 * cancelled: the payment card (CheckoutPayment, reading the same query) says so in place, focused,
 * instead of a reload that took the payer's choices and place without a word.
 */
export function QrHandoff({ checkoutId }: { checkoutId: string }) {
  const wide = useSyncExternalStore(
    subscribe,
    () => window.matchMedia(WIDE).matches,
    () => false,
  );
  const { data } = useQuery({
    ...checkoutStatusQuery(checkoutId),
    enabled: wide,
    refetchInterval: EVERY_MS,
    refetchOnMount: false,
  });
  // Not "processing", which is also this computer's own Pay on its way out.
  const paid = data?.status === "paid";
  useEffect(() => {
    if (paid) window.location.reload();
  }, [paid]);
  return null;
}
