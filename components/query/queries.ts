import { queryOptions } from "@tanstack/react-query";
import type { BanksResponse, CheckoutStatusView } from "@/lib/checkout/contract";
import { fetchJson } from "./fetch-json";

/**
 * Every query key of the payer's pages, in one place, with the query it names: a newcomer (and
 * the devtools) reads the cache by these names (the back office's: components/backoffice/queries.ts).
 * Mutations live next to the forms that use them.
 */
export const queryKeys = {
  banks: (country: string) => ["banks", country] as const,
  checkoutStatus: (checkoutId: string) => ["checkout", checkoutId, "status"] as const,
};

/** The server lets browsers keep a bank list for 5 minutes (`/api/banks`, Cache-Control max-age=300). */
const BANKS_STALE_MS = 5 * 60_000;

export const banksQuery = (country: string) =>
  queryOptions({
    queryKey: queryKeys.banks(country),
    queryFn: ({ signal }) => fetchJson<BanksResponse>(`/api/banks?country=${encodeURIComponent(country)}`, { signal }),
    staleTime: BANKS_STALE_MS,
  });

/** The checkout's status; the server asks the provider while it is not final (at most every few seconds). */
export const checkoutStatusQuery = (checkoutId: string) =>
  queryOptions({
    queryKey: queryKeys.checkoutStatus(checkoutId),
    queryFn: ({ signal }) =>
      fetchJson<CheckoutStatusView>(`/api/checkouts/${encodeURIComponent(checkoutId)}/status`, { signal }),
  });
