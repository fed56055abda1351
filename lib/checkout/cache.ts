import { PisError } from "../pis";
import type { CheckoutContext } from "./context";
import { orAfter } from "./poll";

/** How long a provider failure is remembered: an outage costs one call per key per this, not one per request. */
const FAILURE_TTL_MS = 5_000;
const MAX_ENTRIES = 1_000;

interface Entry<V> {
  at: number;
  value?: { v: V };
  failure?: { at: number; error: unknown };
  loading?: Promise<V>;
}

/**
 * A small per-process cache for provider data that changes rarely (bank lists, project settings).
 * A value past its time is answered at once while the new one loads: a provider that hangs must
 * not hold a payer's page. On a provider failure the last good value is served; with none, the
 * failure itself is kept for a few seconds, so an outage is not multiplied by our traffic, and
 * with `waitMs` a first load that takes longer is given up on with `slow()` (it goes on, and its
 * value serves the next request). Requests that arrive together share one provider call. Keys can
 * come from clients (a bank id), so at most `maxEntries` are kept, the least recently used dropped
 * first.
 */
export function cached<K, V>(
  ttlMs: number,
  load: (key: K) => Promise<V>,
  opts: { now?: () => number; maxEntries?: number; waitMs?: number; slow?: () => Error } = {},
) {
  const now = opts.now ?? Date.now;
  const maxEntries = opts.maxEntries ?? MAX_ENTRIES;
  const entries = new Map<K, Entry<V>>();
  const touch = (key: K, entry: Entry<V>) => {
    entries.delete(key);
    entries.set(key, entry);
    if (entries.size > maxEntries) entries.delete(entries.keys().next().value as K);
  };
  const startLoad = (key: K, entry: Entry<V>) => {
    entry.loading = load(key).then(
      (v) => {
        Object.assign(entry, { at: now(), value: { v }, failure: undefined, loading: undefined });
        return v;
      },
      (error: unknown) => {
        Object.assign(entry, { failure: { at: now(), error }, loading: undefined });
        if (entry.value) return entry.value.v;
        throw error;
      },
    );
    // Nobody may be waiting for a refresh: its failure is kept in the entry, not left unhandled.
    entry.loading.catch(() => undefined);
    return entry.loading;
  };
  const waitFor = (loading: Promise<V>): Promise<V> =>
    opts.waitMs === undefined
      ? loading
      : orAfter(loading, opts.waitMs, () => {
          throw opts.slow?.() ?? new Error("too slow");
        });
  return async (key: K): Promise<V> => {
    const entry = entries.get(key) ?? { at: 0 };
    touch(key, entry);
    if (entry.value && now() - entry.at < ttlMs) return entry.value.v;
    const failedLately = entry.failure && now() - entry.failure.at < FAILURE_TTL_MS;
    if (entry.value) {
      if (!entry.loading && !failedLately) startLoad(key, entry);
      return entry.value.v;
    }
    if (entry.loading) return waitFor(entry.loading);
    if (failedLately) throw entry.failure!.error;
    return waitFor(startLoad(key, entry));
  };
}

/**
 * How long a request waits for provider data nothing holds yet. The provider answers in well under
 * a second; a GET it leaves hanging is tried three times for 15 s each (lib/pis/transport.ts), and a
 * payer's page must not wait for that.
 */
export const PROVIDER_DATA_WAIT_MS = 3_000;

/**
 * `cached`, kept per provider client (so tests with several contexts and projects never share
 * entries): `cachedPerClient(ttl, (ctx, key) => load)` gives `(ctx, key) => value`. A first load
 * slower than PROVIDER_DATA_WAIT_MS is answered as the provider's timeout.
 */
export function cachedPerClient<K, V>(ttlMs: number, load: (ctx: CheckoutContext, key: K) => Promise<V>) {
  const byClient = new WeakMap<CheckoutContext["pis"], (key: K) => Promise<V>>();
  const slow = () => new PisError({ kind: "timeout", operation: "cachedProviderData" });
  return (ctx: CheckoutContext, key: K): Promise<V> => {
    let get = byClient.get(ctx.pis);
    if (!get) {
      get = cached(ttlMs, (k: K) => load(ctx, k), { waitMs: PROVIDER_DATA_WAIT_MS, slow });
      byClient.set(ctx.pis, get);
    }
    return get(key);
  };
}
