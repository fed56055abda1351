import type { CheckoutContext } from "./context";

/**
 * A small per-process cache for provider data that changes rarely (bank lists, project settings).
 * On a provider failure the last good value is served rather than failing the payer's page.
 */
export function cached<K, V>(ttlMs: number, load: (key: K) => Promise<V>) {
  const entries = new Map<K, { at: number; value: V }>();
  return async (key: K): Promise<V> => {
    const hit = entries.get(key);
    if (hit && Date.now() - hit.at < ttlMs) return hit.value;
    try {
      const value = await load(key);
      entries.set(key, { at: Date.now(), value });
      return value;
    } catch (err) {
      if (hit) return hit.value;
      throw err;
    }
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
