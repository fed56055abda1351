/**
 * The idempotency key of the payer's current payment attempt, kept per checkout in
 * sessionStorage so that a double click, a retry after a network error or a reload all send the
 * same key (and the server answers with the same attempt instead of starting a second payment).
 */

const memory = new Map<string, string>();
const storageKey = (checkoutId: string) => `attempt:${checkoutId}`;

function newKey(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  // randomUUID needs a secure context; plain-http previews still get a v4 UUID.
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = ((b[6] ?? 0) & 0x0f) | 0x40;
  b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function getAttemptKey(checkoutId: string): string {
  const k = storageKey(checkoutId);
  try {
    const existing = window.sessionStorage.getItem(k);
    if (existing) return existing;
    const key = newKey();
    window.sessionStorage.setItem(k, key);
    return key;
  } catch {
    const existing = memory.get(k);
    if (existing) return existing;
    const key = newKey();
    memory.set(k, key);
    return key;
  }
}

/** Forget the key once its attempt is over, so the next Pay starts a new attempt. */
export function clearAttemptKey(checkoutId: string): void {
  const k = storageKey(checkoutId);
  memory.delete(k);
  try {
    window.sessionStorage.removeItem(k);
  } catch {
    // Nothing stored.
  }
}

/**
 * The key for this Pay. When `startNew` is set (the stored key's attempt is over), a fresh key is
 * made first, once; later Pays of the same attempt reuse it.
 */
export function attemptKeyFor(checkoutId: string, startNew: { current: boolean }): string {
  if (startNew.current) {
    clearAttemptKey(checkoutId);
    startNew.current = false;
  }
  return getAttemptKey(checkoutId);
}
