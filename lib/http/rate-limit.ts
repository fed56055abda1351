/**
 * In-memory, per-process rate limits (docs/adr/0010-security-headers.md, "Rate limits"). A sliding
 * log per key: exact, and small at these limits. Several app processes each count on their own, so
 * the effective limit is the limit times the number of processes; that is the accepted trade-off
 * for needing no shared store.
 */

import { env } from "../env";

export interface Limit {
  /** At most this many hits... */
  limit: number;
  /** ...within this window. */
  windowMs: number;
}

export interface Verdict {
  ok: boolean;
  /** Whole seconds until the next hit would be allowed (0 when ok). */
  retryAfterSeconds: number;
}

export class RateLimiter {
  private readonly hits = new Map<string, number[]>();

  constructor(
    private readonly rule: Limit,
    private readonly now: () => number = Date.now,
    private readonly maxKeys = 100_000,
  ) {}

  /** Counts a hit for `key` when it is allowed; a refused hit is not counted. */
  hit(key: string): Verdict {
    const verdict = this.check(key);
    if (verdict.ok) this.record(key);
    return verdict;
  }

  check(key: string): Verdict {
    const t = this.now();
    const recent = this.recent(key, t);
    if (recent.length < this.rule.limit) return { ok: true, retryAfterSeconds: 0 };
    const oldest = recent[recent.length - this.rule.limit] as number;
    return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((oldest + this.rule.windowMs - t) / 1000)) };
  }

  record(key: string): void {
    const t = this.now();
    const recent = this.recent(key, t);
    recent.push(t);
    this.hits.delete(key); // re-insert: the Map's order is then least recently used first
    this.hits.set(key, recent);
    if (this.hits.size > this.maxKeys) {
      const first = this.hits.keys().next().value;
      if (first !== undefined) this.hits.delete(first);
    }
  }

  reset(key: string): void {
    this.hits.delete(key);
  }

  private recent(key: string, t: number): number[] {
    const list = (this.hits.get(key) ?? []).filter((at) => at > t - this.rule.windowMs);
    if (list.length === 0) this.hits.delete(key);
    else this.hits.set(key, list);
    return list;
  }
}

/** Thrown by a route to be answered 429 problem+json `rate_limited` with Retry-After (lib/http/route.ts). */
export class RateLimitedError extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super("rate limited");
  }
}

/**
 * The client's address as the nearest proxy saw it: the last X-Forwarded-For entry. `next start`
 * adds the socket's address only when the header is missing, so behind a reverse proxy that
 * appends (any production set-up) the last entry cannot be forged by the client; exposed
 * directly, the header is the client's own and the per-checkout limit is what still holds.
 */
export function clientIp(headers: Headers): string {
  const forwarded = headers.get("x-forwarded-for");
  const last = forwarded?.split(",").map((s) => s.trim()).filter(Boolean).at(-1);
  return last || headers.get("x-real-ip") || "unknown";
}

const MINUTE = 60_000;

interface Limiters {
  paymentsPerCheckout: RateLimiter;
  paymentsPerIp: RateLimiter;
  loginFailuresPerIp: RateLimiter;
}

const holder = globalThis as { __rateLimiters?: Limiters };

/** The app's limiters, one set per process. */
export function limiters(): Limiters {
  const limits = env().rateLimits;
  holder.__rateLimiters ??= {
    paymentsPerCheckout: new RateLimiter({ limit: limits.paymentsPerCheckoutPerMinute, windowMs: MINUTE }),
    paymentsPerIp: new RateLimiter({ limit: limits.paymentsPerIpPerMinute, windowMs: MINUTE }),
    loginFailuresPerIp: new RateLimiter({ limit: limits.loginFailuresPerIpPer15Minutes, windowMs: 15 * MINUTE }),
  };
  return holder.__rateLimiters;
}

/** Payment start: per checkout and per client address; throws RateLimitedError. */
export function limitPaymentStart(checkoutId: string, headers: Headers): void {
  const { paymentsPerCheckout, paymentsPerIp } = limiters();
  const byCheckout = paymentsPerCheckout.check(checkoutId);
  const byIp = paymentsPerIp.check(clientIp(headers));
  if (!byCheckout.ok || !byIp.ok) throw new RateLimitedError(Math.max(byCheckout.retryAfterSeconds, byIp.retryAfterSeconds));
  paymentsPerCheckout.record(checkoutId);
  paymentsPerIp.record(clientIp(headers));
}
