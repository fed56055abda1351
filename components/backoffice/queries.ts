import { queryOptions } from "@tanstack/react-query";
import type { StaffDetail, StaffListing } from "@/lib/checkout/backoffice";
import { fetchJson } from "@/components/query/fetch-json";
import { queryKeys } from "@/components/query/queries";

/** Data staff have just seen is not fetched again for half a minute (a Back to the list, a refocus). */
const STAFF_STALE_MS = 30_000;

/** One page of the checkout list; `filterQuery` is the list's query string (filters.ts `filterQuery`). */
export const staffCheckoutsQuery = (filterQuery: string) =>
  queryOptions({
    queryKey: queryKeys.staffCheckouts(filterQuery),
    queryFn: ({ signal }) => fetchJson<StaffListing>(`/api/backoffice/checkouts${filterQuery ? `?${filterQuery}` : ""}`, { signal }),
    staleTime: STAFF_STALE_MS,
  });

/** Everything staff see about one checkout. */
export const staffCheckoutQuery = (checkoutId: string) =>
  queryOptions({
    queryKey: queryKeys.staffCheckout(checkoutId),
    queryFn: ({ signal }) => fetchJson<StaffDetail>(`/api/backoffice/checkouts/${encodeURIComponent(checkoutId)}`, { signal }),
    staleTime: STAFF_STALE_MS,
  });
