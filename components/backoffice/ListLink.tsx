"use client";

import type { MouseEvent, ReactNode } from "react";

/** The results' heading (CheckoutTable), where focus goes after a link of the list is followed. */
export const RESULTS_HEADING_ID = "checkouts-heading";

/**
 * A link to another view of the list (a page, cleared filters). It changes only the address: the
 * list follows the address through its query, so no server render is needed. A modified click (new
 * tab, new window) is left to the browser. Focus moves to the results' heading: the link pressed
 * may be gone from the new view (no Next page on the last page, no Clear filters once cleared), and
 * a new page is read from its top.
 */
export function ListLink({ href, children }: { href: string; children: ReactNode }) {
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    showList(href);
    document.getElementById(RESULTS_HEADING_ID)?.focus();
  };
  return (
    <a href={href} onClick={onClick}>
      {children}
    </a>
  );
}

/** Next's router follows pushState: useSearchParams sees the new address, the page is not fetched. */
export function showList(href: string) {
  window.history.pushState(null, "", href);
}
