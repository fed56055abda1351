"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect, type RefObject } from "react";
import type { CheckoutStatusView } from "@/lib/checkout/contract";
import { inQueryIsland } from "@/components/query/QueryIsland";
import { checkoutStatusQuery } from "@/components/query/queries";

const POLL_INTERVAL_MS = 1_500;
const POLL_MAX_INTERVAL_MS = 10_000;

/** The pause after n answers: 1.5 s, growing by half each time, at most 10 s. */
function pollDelayMs(n: number): number {
  return Math.min(POLL_INTERVAL_MS * 1.5 ** n, POLL_MAX_INTERVAL_MS);
}

export interface Followed {
  data: CheckoutStatusView | null;
  /** The last ask failed and none is under way. */
  failed: boolean;
}

interface FollowerProps {
  checkoutId: string;
  initial: CheckoutStatusView | null;
  /** Ask again while this holds for the last answer. */
  follow: (data: CheckoutStatusView | undefined) => boolean;
  onChange: (followed: Followed) => void;
  /** Set to "ask now" ("Check again", back from the back/forward cache). */
  askNowRef: RefObject<(() => void) | null>;
}

function Follow({ checkoutId, initial, follow, onChange, askNowRef }: FollowerProps) {
  const query = useQuery({
    ...checkoutStatusQuery(checkoutId),
    initialData: initial ?? undefined,
    enabled: (q) => follow(q.state.data),
    refetchInterval: (q) => pollDelayMs(q.state.dataUpdateCount + q.state.errorUpdateCount),
  });
  const { data, refetch } = query;
  const failed = query.isError && !query.isFetching;
  useEffect(() => {
    askNowRef.current = () => void refetch();
  }, [askNowRef, refetch]);
  useEffect(() => onChange({ data: data ?? null, failed }), [onChange, data, failed]);
  return null;
}

/**
 * The landing's status while it is not final: react-query asks the server again, backing off from
 * every 1.5 s to every 10 s, paused while the tab is hidden and at once when the payer comes back
 * to it. An island loaded after the page, only by a landing whose outcome is still to come (ADR 26).
 */
export default inQueryIsland(Follow);
