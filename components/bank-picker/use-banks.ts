/**
 * The bank list of one country, from `GET /api/banks?country=XX`. The page's default country
 * arrives with the page (no request, no spinner); other countries are fetched when chosen and kept
 * for the life of the page. A small hook instead of a query library keeps the checkout's
 * JavaScript small.
 */
import { useEffect, useState } from "react";
import type { BankView, BanksResponse } from "@/lib/checkout/types";
import { requestJson } from "@/components/ui/api";

export type BanksState =
  | { status: "loading" }
  | { status: "error"; retry(): void }
  | { status: "ready"; banks: BankView[] };

export function useBanks(country: string, initial: BanksResponse | null): BanksState {
  const [lists, setLists] = useState<Readonly<Record<string, BankView[]>>>(() => (initial ? { [initial.country]: initial.banks } : {}));
  const [failed, setFailed] = useState<{ country: string; round: number } | null>(null);
  const [round, setRound] = useState(0);
  const list = lists[country];

  useEffect(() => {
    if (list) return;
    const controller = new AbortController();
    requestJson<BanksResponse>(`/api/banks?country=${encodeURIComponent(country)}`, { signal: controller.signal })
      .then((response) => setLists((current) => ({ ...current, [country]: response.banks })))
      .catch(() => {
        if (!controller.signal.aborted) setFailed({ country, round });
      });
    return () => controller.abort();
  }, [country, list, round]);

  if (list) return { status: "ready", banks: list };
  if (failed && failed.country === country && failed.round === round) {
    return { status: "error", retry: () => setRound((r) => r + 1) };
  }
  return { status: "loading" };
}
