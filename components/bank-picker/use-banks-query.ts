import { useEffect, useState } from "react";
import type { BankView, BanksResponse } from "@/lib/checkout/contract";
import { lazyQueryClient } from "@/components/query/lazy-client";
import { banksQuery } from "@/components/query/queries";

export type BanksState =
  { status: "loading" } | { status: "error"; retry(): void } | { status: "ready"; banks: BankView[] };

/**
 * The bank list of one country as the picker shows it. The page's default country arrives with
 * the page (no request and no spinner on load); other countries are fetched when chosen, or
 * before, when the payer reaches for the country switch, through the tab's react-query cache
 * (fresh for 5 minutes, one request for a list asked twice), which loads with the first of them
 * (ADR 26).
 */
export function useBanksQuery(country: string, initial: BanksResponse | null): BanksState {
  const [lists, setLists] = useState<Record<string, BanksResponse>>(() =>
    initial ? { [initial.country]: initial } : {},
  );
  const [failed, setFailed] = useState<{ country: string; asked: number } | null>(null);
  const [asked, setAsked] = useState(0);
  const list = lists[country];
  useEffect(() => {
    if (list) return;
    let live = true;
    lazyQueryClient()
      .then((client) => client.fetchQuery(banksQuery(country)))
      .then(
        (data) => live && setLists((known) => ({ ...known, [country]: data })),
        () => live && setFailed({ country, asked }),
      );
    return () => {
      live = false;
    };
  }, [country, list, asked]);
  if (list) return { status: "ready", banks: list.banks };
  // While "Try again" is asking, the payer is told it is loading (not the old error again).
  if (failed?.country === country && failed.asked === asked)
    return { status: "error", retry: () => setAsked((n) => n + 1) };
  return { status: "loading" };
}

/** Fetches these countries' lists ahead (a no-op for lists already fresh in the cache). */
export function prefetchBanks(countries: readonly string[]): void {
  void lazyQueryClient().then((client) => {
    for (const c of countries) void client.prefetchQuery(banksQuery(c));
  });
}
