import { sql, type Placeholder, type SQL } from "drizzle-orm";
import type { Db } from "../db";
import { rowsOf } from "../db/raw";
import { env } from "../env";
import { clientKey } from "./client-address";

/**
 * Rate limits shared by every instance through the database (ADR 14): a fixed window per key,
 * counted with one atomic upsert, so instances never disagree and nothing lives in one process's
 * memory. Refused hits count too: a client hammering a limit stays refused until its window ends.
 * Windows that ended are pruned by the worker (lib/retention), off the requests' path.
 */

export interface Limit {
  /** At most this many hits... */
  limit: number;
  /** ...within this window. */
  windowMs: number;
}

export interface Verdict {
  ok: boolean;
  /** Whole seconds until the window ends (0 when ok). */
  retryAfterSeconds: number;
}

/** Thrown by a route to be answered 429 problem+json `rate_limited` with Retry-After (lib/http/route.ts). */
export class RateLimitedError extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super("rate limited");
  }
}

function verdict(rule: Limit, row: Pick<Counted, "hits" | "expires_at"> | undefined, now: Date): Verdict {
  if (!row || row.hits <= rule.limit) return { ok: true, retryAfterSeconds: 0 };
  const left = new Date(row.expires_at).getTime() - now.getTime();
  return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(left / 1000)) };
}

/** Counts one hit on `key` and says whether it is within the limit. */
export async function hit(db: Db, key: string, rule: Limit, now = new Date()): Promise<Verdict> {
  const [verdict] = await hitAll(db, [{ key, rule }], now);
  return verdict!;
}

/** One hit to count: on `key`, against `rule`. */
export interface Hit {
  key: string;
  rule: Limit;
}

/** What the counting statement returns for each key. */
export interface Counted {
  key: string;
  hits: number;
  expires_at: Date | string;
}

/** A key to count (a value, or a prepared statement's placeholder), and when its window ends if it begins now. */
export interface CountedKey {
  key: string | Placeholder;
  windowEnds: Date | Placeholder;
  /** Not counted when this holds (as the statement sees the database); its verdict is then ok. */
  unless?: SQL;
}

/** The keys of `hits`, counted at `now`. */
export const countedKeys = (hits: Hit[], now: Date): CountedKey[] =>
  hits.map(({ key, rule }) => ({ key, windowEnds: new Date(now.getTime() + rule.windowMs) }));

/**
 * The one statement that counts a hit on each key (an upsert returning each key's count): run on
 * its own, or as a CTE of the statement a request makes anyway (payment start), to save a trip.
 */
export function countingHits(keys: CountedKey[], now: Date | Placeholder): SQL {
  const rows = sql.join(
    keys.map(
      ({ key, windowEnds, unless }) =>
        sql`select ${key}::text, ${now}::timestamptz, 1, ${windowEnds}::timestamptz${
          unless ? sql` where not ${unless}` : sql``
        }`,
    ),
    sql` union all `,
  );
  return sql`
    insert into rate_limits (key, window_started_at, hits, expires_at) ${rows}
    on conflict (key) do update set
      hits = case when rate_limits.expires_at <= ${now}::timestamptz then 1 else rate_limits.hits + 1 end,
      window_started_at = case when rate_limits.expires_at <= ${now}::timestamptz then ${now}::timestamptz else rate_limits.window_started_at end,
      expires_at = case when rate_limits.expires_at <= ${now}::timestamptz then excluded.expires_at else rate_limits.expires_at end
    returning key, hits, expires_at`;
}

/** Each hit's verdict, from the rows its counting statement returned. */
export function verdictsOf(hits: Hit[], rows: Counted[], now: Date): Verdict[] {
  const counted = new Map(rows.map((r) => [r.key, r]));
  return hits.map(({ key, rule }) => verdict(rule, counted.get(key), now));
}

/** Throws RateLimitedError when any verdict refuses, with the longest wait. */
export function enforceAll(verdicts: Verdict[]): void {
  if (verdicts.some((v) => !v.ok)) throw new RateLimitedError(Math.max(...verdicts.map((v) => v.retryAfterSeconds)));
}

/** Counts one hit on each key, all in one statement, and says for each whether it is within its limit. */
export async function hitAll(db: Db, hits: Hit[], now = new Date()): Promise<Verdict[]> {
  const result = await db.execute(countingHits(countedKeys(hits, now), now));
  return verdictsOf(hits, rowsOf<Counted>(result), now);
}

/** What limitFailures() says: refused before checking, or checked and whether the check passed. */
export type Judged = { ok: false; retryAfterSeconds: number } | { ok: true; passed: boolean };

/**
 * Runs `check` (a password) only while every key of `hits` (the client's address, the account)
 * has failures to spare, and counts only failures. The attempt is counted before the check, in the
 * atomic upsert: a check that read the count first and counted afterwards let every request of a
 * burst through. A passed check takes its hits back, in the same windows only, so a colleague who
 * typed well uses up nothing.
 */
export async function limitFailures(
  db: Db,
  hits: Hit[],
  check: () => boolean | Promise<boolean>,
  now = new Date(),
): Promise<Judged> {
  const rows = rowsOf<Counted>(await db.execute(countingHits(countedKeys(hits, now), now)));
  const refused = verdictsOf(hits, rows, now).filter((v) => !v.ok);
  if (refused.length > 0) return { ok: false, retryAfterSeconds: Math.max(...refused.map((v) => v.retryAfterSeconds)) };
  const passed = await check();
  if (passed) {
    for (const row of rows)
      await db.execute(
        sql`update rate_limits set hits = hits - 1 where key = ${row.key} and expires_at = ${new Date(row.expires_at)}`,
      );
  }
  return { ok: true, passed };
}

const MINUTE = 60_000;

export function limits() {
  const l = env().rateLimits;
  return {
    paymentsPerCheckout: { limit: l.paymentsPerCheckoutPerMinute, windowMs: MINUTE },
    paymentsPerIp: { limit: l.paymentsPerIpPerMinute, windowMs: MINUTE },
    loginFailuresPerIp: { limit: l.loginFailuresPerIpPer15Minutes, windowMs: 15 * MINUTE },
    loginFailuresPerAccount: { limit: l.loginFailuresPerAccountPer15Minutes, windowMs: 15 * MINUTE },
    forgedWebhooksPerIp: { limit: l.forgedWebhooksPerIpPerMinute, windowMs: MINUTE },
    abandonsPerIp: { limit: l.abandonsPerIpPerMinute, windowMs: MINUTE },
    returnReadsPerIp: { limit: l.returnReadsPerIpPerMinute, windowMs: MINUTE },
    linkCheckoutsPerIp: { limit: l.linkCheckoutsPerIpPerMinute, windowMs: MINUTE },
  };
}

/**
 * The least time between two provider reads that landing loads make about the payment the payer
 * came back from, whichever instance serves them.
 */
export const RETURN_READ_GAP_MS = 2000;

/** The hits a landing load counts before it asks about the payment the payer came back from. */
export function returnReadHits(attemptId: string, headers: Headers): Hit[] {
  return [
    { key: `return:attempt:${attemptId}`, rule: { limit: 1, windowMs: RETURN_READ_GAP_MS } },
    { key: `return:ip:${clientKey(headers)}`, rule: limits().returnReadsPerIp },
  ];
}

/** Counts one hit on `key`; throws RateLimitedError past the limit. */
export async function enforce(db: Db, key: string, rule: Limit): Promise<void> {
  enforceAll([await hit(db, key, rule)]);
}

/** The hits a payment start counts: per checkout and per client address. */
export function paymentStartHits(checkoutId: string, headers: Headers): Hit[] {
  const rules = limits();
  return [
    { key: `pay:checkout:${checkoutId}`, rule: rules.paymentsPerCheckout },
    { key: `pay:ip:${clientKey(headers)}`, rule: rules.paymentsPerIp },
  ];
}

/** Payment start's limits, counted in one statement; throws RateLimitedError. */
export async function limitPaymentStart(db: Db, checkoutId: string, headers: Headers): Promise<void> {
  enforceAll(await hitAll(db, paymentStartHits(checkoutId, headers)));
}
