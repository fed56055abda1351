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

let reading: Promise<OutboxReading | undefined> | undefined;

/** The outbox as the database has it now: one query per scrape, however many gauges ask. */
export function outboxReading(): Promise<OutboxReading | undefined> {
  reading ??= readOutbox().finally(() => (reading = undefined));
  return reading;
}

async function readOutbox(): Promise<OutboxReading | undefined> {
  const db = holder.__metricsDb;
  if (!db) return undefined;
  // After the last retry a notification is given up (lib/checkout/notifications.ts), and stays
  // undelivered for the back office to resend. The pending rows are in a partial index.
  const last = RETRY_DELAYS_MS.length;
  let timer: NodeJS.Timeout | undefined;
  try {
    const result = await Promise.race([
      db.execute(sql`
        select
          count(*) filter (where attempts <= ${last} and next_attempt_at <= now())::int as due,
          count(*) filter (where attempts <= ${last} and next_attempt_at > now())::int as retrying,
          count(*) filter (where attempts > ${last})::int as given_up,
          coalesce(extract(epoch from now() - min(created_at) filter (where attempts <= ${last})), 0)::float8 as oldest_age
        from notifications where delivered_at is null`),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${READ_TIMEOUT_MS} ms`)), READ_TIMEOUT_MS);
      }),
    ]);
    return rowsOf<OutboxReading>(result)[0];
  } catch (err) {
    // The scrape still answers, without these series: their absence is what an alert sees.
    logger.warn({ err: err instanceof Error ? err.message : String(err) }, "metrics: the outbox could not be read");
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
