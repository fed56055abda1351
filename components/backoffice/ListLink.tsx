"use client";

import type { MouseEvent, ReactNode } from "react";

/**
 * A link to another view of the list (a page, cleared filters). It changes only the address: the
 * list follows the address through its query, so no server render is needed. A modified click (new
 * tab, new window) is left to the browser.
 */
export function ListLink({ href, children }: { href: string; children: ReactNode }) {
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    showList(href);
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
