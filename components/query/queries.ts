import { queryOptions } from "@tanstack/react-query";
import type { BanksResponse, CheckoutStatusView } from "@/lib/checkout/types";
import { fetchJson } from "./fetch-json";

/**
 * Every query key of the client islands, in one place, with the query it names: a newcomer (and
 * the devtools) reads the cache by these names. Mutations live next to the forms that use them.
 */
export const queryKeys = {
  banks: (country: string) => ["banks", country] as const,
  checkoutStatus: (checkoutId: string) => ["checkout", checkoutId, "status"] as const,
  /** The back office's list: one entry per filter and page ("status=paid&page=2"); the prefix names them all. */
  staffCheckouts: (filterQuery?: string) => (filterQuery === undefined ? (["backoffice", "checkouts"] as const) : (["backoffice", "checkouts", filterQuery] as const)),
  staffCheckout: (checkoutId: string) => ["backoffice", "checkout", checkoutId] as const,
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
    queryFn: ({ signal }) => fetchJson<CheckoutStatusView>(`/api/checkouts/${encodeURIComponent(checkoutId)}/status`, { signal }),
  });
