/**
 * This process's own hint that its database is away: set when a connection drops or a query finds
 * the database unreachable, cleared when the pool connects again. The proxy reads it to answer a
 * payer's page 503 with Retry-After at once (a page's render cannot set its status, ADR 39), instead
 * of a render that fails with 500. Only a hint: nothing is decided by it, each instance keeps its
 * own, and it lapses by itself, so a page is never held back long after the database is back.
 */
const AWAY_HINT_MS = 10_000;

// On globalThis: the proxy and the pages are bundled apart but run in one process.
const holder = globalThis as { __databaseAwaySince?: number };

export function markDatabaseAway(now = Date.now()): void {
  holder.__databaseAwaySince = now;
}

export function markDatabaseBack(): void {
  holder.__databaseAwaySince = undefined;
}

/** Whether this process found its database away in the last few seconds, and has not connected since. */
export function databaseAwayHint(now = Date.now()): boolean {
  const since = holder.__databaseAwaySince;
  return since !== undefined && now - since < AWAY_HINT_MS;
}
