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
