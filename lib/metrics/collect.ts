import { sql } from "drizzle-orm";
import type { Pool } from "pg";
import { RETRY_DELAYS_MS } from "../checkout/notifications";
import type { Db } from "../db/client";
import { rowsOf } from "../db/raw";
import { logger } from "../log/logger";

/*
 * What a scrape reads when it happens (the gauges' collect callbacks, ./registry.ts): the outbox
 * from the database, so every instance reports the same numbers, and this instance's pool.
 */

// On globalThis, as the registry is: set by the app context once its database is open.
const holder = globalThis as { __metricsDb?: Db };

/** The database the scrape-time gauges read. */
export function watchDatabase(db: Db | undefined): void {
  holder.__metricsDb = db;
}

export interface OutboxReading {
  due: number;
  retrying: number;
  given_up: number;
  oldest_age: number;
}

/** A scrape waits no longer for the database: Prometheus' own timeout is 10 s by default. */
const READ_TIMEOUT_MS = 2_000;

/** One read in flight at a time, shared by every gauge of a scrape that asks while it runs. */
function oncePerScrape<T>(read: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | undefined;
  return () => (running ??= read().finally(() => (running = undefined)));
}

/** The outbox as the database has it now: one query per scrape, however many gauges ask. */
export const outboxReading = oncePerScrape(readOutbox);

async function readOutbox(): Promise<OutboxReading | undefined> {
  const db = holder.__metricsDb;
  if (!db) return undefined;
  // After the last retry a notification is given up (lib/checkout/outbox.ts), and stays
  // undelivered for the back office to resend. The pending rows are in a partial index.
  const last = RETRY_DELAYS_MS.length;
  const rows = await readWithin(
    "the outbox",
    db.execute(sql`
        select
          count(*) filter (where attempts <= ${last} and next_attempt_at <= now())::int as due,
          count(*) filter (where attempts <= ${last} and next_attempt_at > now())::int as retrying,
          count(*) filter (where attempts > ${last})::int as given_up,
          coalesce(extract(epoch from now() - min(created_at) filter (where attempts <= ${last})), 0)::float8 as oldest_age
        from notifications where delivered_at is null`),
  );
  return rows === undefined ? undefined : rowsOf<OutboxReading>(rows)[0];
}

/**
 * Past this no payer is still at the bank: a payment still in flight was left there (started), or
 * waits on the bank or the provider (pending), or on an answer we never got (unknown).
 */
export const IN_FLIGHT_LONG_SECONDS = 30 * 60;

export type InFlightGroup = "unknown" | "started" | "pending";
export type InFlightReading = Record<InFlightGroup, { count: number; long: number }>;

/** Payments started and not settled, as the database has them now: one query per scrape. */
export const inFlightReading = oncePerScrape(readInFlight);

async function readInFlight(): Promise<InFlightReading | undefined> {
  const db = holder.__metricsDb;
  if (!db) return undefined;
  // The where clause is payment_attempts_one_in_flight_idx's own predicate, so the planner reads
  // that partial index: its rows are the attempts in flight, a handful, never the whole table.
  const rows = await readWithin(
    "payments in flight",
    db.execute(sql`
        select coalesce(status_group, 'unknown') as "group", count(*)::int as count,
          count(*) filter (where created_at < now() - make_interval(secs => ${IN_FLIGHT_LONG_SECONDS}::int))::int as long
        from payment_attempts
        where abandoned_at is null and (status_group is null or status_group in ('started', 'pending'))
        group by 1`),
  );
  if (rows === undefined) return undefined;
  const reading: InFlightReading = {
    unknown: { count: 0, long: 0 },
    started: { count: 0, long: 0 },
    pending: { count: 0, long: 0 },
  };
  for (const row of rowsOf<{ group: InFlightGroup; count: number; long: number }>(rows))
    reading[row.group] = { count: row.count, long: row.long };
  return reading;
}

/** A statement's result, or undefined (logged) when it fails or takes longer than a scrape may wait. */
async function readWithin<T>(what: string, query: Promise<T>): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      query,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${READ_TIMEOUT_MS} ms`)), READ_TIMEOUT_MS);
      }),
    ]);
  } catch (err) {
    // The scrape still answers, without these series: their absence is what an alert sees.
    logger.warn({ err: err instanceof Error ? err.message : String(err) }, `metrics: ${what} could not be read`);
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * This instance's node-postgres pool (drizzle keeps it as `$client`). On PGlite it is the pool of
 * connections to the embedded database's thread (lib/db/client.ts), so in use and waiting mean
 * the same there: queries this instance has at the database, and queries queued for a connection.
 */
export function poolOf(): Pool | undefined {
  return (holder.__metricsDb as { $client?: Pool } | undefined)?.$client;
}
