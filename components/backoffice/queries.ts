import { queryOptions } from "@tanstack/react-query";
import type { StaffDetail, StaffListing } from "@/lib/checkout/contract";
import { fetchJson } from "@/components/query/fetch-json";

/** The back office's query keys; its own module, so the payer's pages do not carry them. */
export const staffKeys = {
  /** The list: one entry per filter and page ("status=paid&page=2"); without an argument, the prefix of them all. */
  checkouts: (filterQuery?: string) =>
    filterQuery === undefined
      ? (["backoffice", "checkouts"] as const)
      : (["backoffice", "checkouts", filterQuery] as const),
  checkout: (checkoutId: string) => ["backoffice", "checkout", checkoutId] as const,
};

/** Data staff have just seen is not fetched again for half a minute (a Back to the list, a refocus). */
const STAFF_STALE_MS = 30_000;

/** One page of the checkout list; `filterQuery` is the list's query string (filters.ts `filterQuery`). */
export const staffCheckoutsQuery = (filterQuery: string) =>
  queryOptions({
    queryKey: staffKeys.checkouts(filterQuery),
    queryFn: ({ signal }) =>
      fetchJson<StaffListing>(`/api/backoffice/checkouts${filterQuery ? `?${filterQuery}` : ""}`, { signal }),
    staleTime: STAFF_STALE_MS,
  });

/** Everything staff see about one checkout. */
export const staffCheckoutQuery = (checkoutId: string) =>
  queryOptions({
    queryKey: staffKeys.checkout(checkoutId),
    queryFn: ({ signal }) =>
      fetchJson<StaffDetail>(`/api/backoffice/checkouts/${encodeURIComponent(checkoutId)}`, { signal }),
    staleTime: STAFF_STALE_MS,
  });
