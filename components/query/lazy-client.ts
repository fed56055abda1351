import type { QueryClient } from "@tanstack/react-query";

/**
 * The tab's QueryClient for code in a payer page's first load, which must not carry react-query
 * itself (ADR 26): the library is fetched the first time something asks (a bank list, a prefetch).
 */
export function lazyQueryClient(): Promise<QueryClient> {
  return import("./QueryIsland").then((m) => m.browserQueryClient());
}
