import type { CheckoutContext } from "./context";

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
 * On a provider failure the last good value is served rather than failing the payer's page; with
 * none, the failure itself is kept for a few seconds, so an outage is not multiplied by our
 * traffic. Requests that arrive together share one provider call. Keys can come from clients (a
 * bank id), so at most `maxEntries` are kept, the least recently used dropped first.
 */
export function cached<K, V>(
  ttlMs: number,
  load: (key: K) => Promise<V>,
  opts: { now?: () => number; maxEntries?: number } = {},
) {
  const now = opts.now ?? Date.now;
  const maxEntries = opts.maxEntries ?? MAX_ENTRIES;
  const entries = new Map<K, Entry<V>>();
  const touch = (key: K, entry: Entry<V>) => {
    entries.delete(key);
    entries.set(key, entry);
    if (entries.size > maxEntries) entries.delete(entries.keys().next().value as K);
  };
  return async (key: K): Promise<V> => {
    const entry = entries.get(key) ?? { at: 0 };
    touch(key, entry);
    if (entry.value && now() - entry.at < ttlMs) return entry.value.v;
    if (entry.loading) return entry.loading;
    if (entry.failure && now() - entry.failure.at < FAILURE_TTL_MS) {
      if (entry.value) return entry.value.v;
      throw entry.failure.error;
    }
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
    return entry.loading;
  };
}

/**
 * `cached`, kept per provider client (so tests with several contexts and projects never share
 * entries): `cachedPerClient(ttl, (ctx, key) => load)` gives `(ctx, key) => value`.
 */
export function cachedPerClient<K, V>(ttlMs: number, load: (ctx: CheckoutContext, key: K) => Promise<V>) {
  const byClient = new WeakMap<CheckoutContext["pis"], (key: K) => Promise<V>>();
  return (ctx: CheckoutContext, key: K): Promise<V> => {
    let get = byClient.get(ctx.pis);
    if (!get) {
      get = cached(ttlMs, (k: K) => load(ctx, k));
      byClient.set(ctx.pis, get);
    }
    return get(key);
  };
}
