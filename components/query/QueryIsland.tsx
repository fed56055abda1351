"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState, type ComponentType, type ReactNode } from "react";

/**
 * Nothing is retried by default: a payment start must never be repeated by a library, and the
 * polls have their own rhythm; each query that wants retries says so.
 */
function newQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
}

let tabClient: QueryClient | undefined;

/** The browser tab's one QueryClient, shared by every island of the page (bank lists, the checkout's status). */
export function browserQueryClient(): QueryClient {
  return (tabClient ??= newQueryClient());
}

/**
 * react-query for a part of a payer's page that loads after the page (ADR 26): the library comes
 * with the island's own code, not in the page's first load. In the browser every island shares the
 * tab's client; on the server each render has its own, never shared between requests.
 */
export function QueryIsland({ children }: { children: ReactNode }) {
  const [client] = useState(() => (typeof window === "undefined" ? newQueryClient() : browserQueryClient()));
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

/** `Inner` as an island of its own: the same component, inside QueryIsland. */
export function inQueryIsland<P extends object>(Inner: ComponentType<P>): ComponentType<P> {
  return function Island(props: P) {
    return (
      <QueryIsland>
        <Inner {...props} />
      </QueryIsland>
    );
  };
}
