"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useSearchParams } from "next/navigation";
import type { StaffListing } from "@/lib/checkout/contract";
import { ApiError } from "@/components/query/fetch-json";
import { CheckoutFilters } from "./CheckoutFilters";
import { CheckoutTable } from "./CheckoutTable";
import { filterQuery, parseFilter } from "./filters";
import { staffCheckoutsQuery } from "./queries";

interface CheckoutListProps {
  /** The page the server rendered, with the query string it was rendered for. */
  initial: { query: string; listing: StaffListing };
  /** Bank ids to offer in the filter, with their display names. */
  banks: { id: string; name: string }[];
}

/**
 * The filters and the list. The address holds the filters (bookmark, share, Back); the list is a
 * query keyed by them, so changing a filter fetches one JSON page instead of rendering the whole
 * page again, and going Back to a list seen a moment ago shows it at once.
 */
export function CheckoutList({ initial, banks }: CheckoutListProps) {
  const searchParams = useSearchParams();
  const { filter, problems } = parseFilter(Object.fromEntries(searchParams));
  const query = filterQuery(filter);
  const list = useQuery({
    ...staffCheckoutsQuery(query),
    // The server's render is the first answer for its own address only.
    initialData: query === initial.query ? initial.listing : undefined,
    placeholderData: keepPreviousData,
  });
  const sessionEnded = list.error instanceof ApiError && list.error.status === 401;

  return (
    <>
      {problems.length > 0 && (
        <div className="alert alert-warning" role="status">
          <ul>
            {problems.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        </div>
      )}
      <CheckoutFilters filter={filter} banks={banks} />
      <div role="alert" aria-label="List error">
        {list.error && (
          <p className="alert alert-error">
            {sessionEnded ? (
              <>
                Your session has ended. <a href="/backoffice/login">Sign in again</a>
              </>
            ) : (
              <>
                The list could not be loaded.{" "}
                <button type="button" className="link-button" onClick={() => void list.refetch()}>
                  Try again
                </button>
              </>
            )}
          </p>
        )}
      </div>
      {list.data && <CheckoutTable listing={list.data} filter={filter} loading={list.isPlaceholderData} />}
    </>
  );
}
