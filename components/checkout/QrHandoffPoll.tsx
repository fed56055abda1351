"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { inQueryIsland } from "@/components/query/QueryIsland";
import { checkoutStatusQuery } from "@/components/query/queries";
import { reportStatus } from "./status-store";

const EVERY_MS = 5_000;

/**
 * Asks every 5 s (paused while the tab is hidden) whether the checkout has ended. Paid: it reloads,
 * so the computer shows "paid" too instead of a form for an order already paid. Expired or
 * cancelled: the payment card (CheckoutPayment, reading the status store) says so in place,
 * focused, instead of a reload that took the payer's choices and place without a word.
 */
function Poll({ checkoutId }: { checkoutId: string }) {
  const { data } = useQuery({ ...checkoutStatusQuery(checkoutId), refetchInterval: EVERY_MS });
  useEffect(() => {
    if (data) reportStatus(checkoutId, data);
  }, [checkoutId, data]);
  // Not "processing", which is also this computer's own Pay on its way out.
  const paid = data?.status === "paid";
  useEffect(() => {
    if (paid) window.location.reload();
  }, [paid]);
  return null;
}

export default inQueryIsland(Poll);
