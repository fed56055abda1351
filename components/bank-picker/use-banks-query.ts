import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { BankView, BanksResponse } from "@/lib/checkout/contract";
import { banksQuery } from "@/components/query/queries";

export type BanksState =
  { status: "loading" } | { status: "error"; retry(): void } | { status: "ready"; banks: BankView[] };

/**
 * The bank list of one country as the picker shows it. The page's default country arrives with
 * the page as the query's initial data (no request and no spinner on load); other countries are
 * fetched when chosen, or before, when the payer reaches for the country switch.
 */
export function useBanksQuery(country: string, initial: BanksResponse | null): BanksState {
  const query = useQuery({ ...banksQuery(country), initialData: initial?.country === country ? initial : undefined });
  if (query.data) return { status: "ready", banks: query.data.banks };
  // While "Try again" is asking, the payer is told it is loading (not the old error again).
  if (query.isError && !query.isFetching) return { status: "error", retry: () => void query.refetch() };
  return { status: "loading" };
}

/** Fetches these countries' lists ahead (a no-op for lists already fresh in the cache). */
export function usePrefetchBanks(): (countries: readonly string[]) => void {
  const client = useQueryClient();
  return (countries) => {
    for (const c of countries) void client.prefetchQuery(banksQuery(c));
  };
}
