import type { CheckoutObserver } from "../checkout/observer";
import { PisError, type PisCall } from "../pis";
import { LABEL_VALUES, MAX_BANK_LABELS, metrics } from "./registry";

/*
 * What the hot paths call: a few map lookups and additions, never a wait. Each value is checked
 * against its fixed list here as well, so a caller's mistake costs one "other" series, not a
 * series per request.
 */

const METHODS = new Set<string>(LABEL_VALUES.method);
// A route template: the route folders' own words (lower-case letters, "-" and "."), {id} and
// {...path} (lib/http/route.ts). An id left in by mistake has digits, capitals or "_": other.
const ROUTE_TEMPLATE = /^(\/([a-z][a-z.-]{0,39}|\{id\}|\{\.\.\.path\}))*\/?$/;
// Provider operations and workers' names are identifiers from the source.
const WORD = /^[A-Za-z][A-Za-z0-9_]{0,47}$/;

/** One answered request of a route handler. `route` is its template (lib/http/route.ts routeOf). */
export function recordRequest(method: string, route: string, status: number, durationMs: number): void {
  metrics().requestSeconds.observe(
    {
      method: METHODS.has(method) ? method : "other",
      route: route.length <= 100 && ROUTE_TEMPLATE.test(route) ? route : "other",
      status: Number.isInteger(status) && status >= 100 && status <= 599 ? String(status) : "other",
    },
    durationMs / 1000,
  );
}

/** The provider client's observer (lib/pis PisConfig.observe). */
export function recordProviderCall(call: PisCall): void {
  metrics().providerSeconds.observe(
    { operation: WORD.test(call.operation) ? call.operation : "other", outcome: providerOutcome(call.error) },
    call.durationMs / 1000,
  );
}

function providerOutcome(error: unknown): (typeof LABEL_VALUES.providerOutcome)[number] {
  if (error === undefined) return "ok";
  if (!(error instanceof PisError)) return "error";
  if (error.kind !== "http") return error.kind;
  const status = error.httpStatus ?? 0;
  return status >= 500 ? "http_5xx" : status >= 400 ? "http_4xx" : "http_other";
}

// Bank ids the provider listed to this process. A payer's bankId was checked against the
// provider when the payment started, but not while the provider was down, and a webhook may end it
// on an instance that has not listed banks since it started: that one bank is counted as other.
const holder = globalThis as { __metricsBanks?: Set<string> };
const listedBanks = (holder.__metricsBanks ??= new Set());
// A provider's bank id: capitals, digits and "_" (SWEDBANK_LT, SEB_LV_SAND).
const BANK_ID = /^[A-Za-z0-9_-]{1,64}$/;

function bankLabel(bankId: string | null): string {
  if (bankId === null) return "none";
  return listedBanks.has(bankId) ? bankId : "other";
}

/** The checkout domain's observer (lib/checkout/observer.ts). */
export const checkoutMetrics: CheckoutObserver = {
  created(origin) {
    metrics().created.inc({ origin });
  },
  ended(status, method, bankId) {
    metrics().ended.inc({ status, method: method ?? "none", bank: bankLabel(bankId) });
  },
  banksListed(bankIds) {
    for (const id of bankIds) {
      if (listedBanks.size >= MAX_BANK_LABELS) return;
      if (BANK_ID.test(id) && id !== "none" && id !== "other") listedBanks.add(id);
    }
  },
  delivered(result) {
    metrics().deliveries.inc({ result });
  },
};

/** lib/rounds.ts's observer: each background round's time. */
export function recordRound(name: string, durationMs: number, ok: boolean): void {
  metrics().roundSeconds.observe(
    { worker: WORD.test(name) ? name : "other", outcome: ok ? "ok" : "failed" },
    durationMs / 1000,
  );
}
