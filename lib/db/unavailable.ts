import { markDatabaseAway } from "./away";

/**
 * Whether an error means the database could not be reached or ended the session (a restart, a
 * failover, a host that hangs), rather than that a statement of ours failed. The first is answered
 * 503 with `retry`, the same request working once the database is back; the second stays a 500.
 * Read from node-postgres's own codes and messages, through the causes that drizzle and the app
 * wrap it in.
 */
export function databaseUnavailable(err: unknown): boolean {
  for (let e = err, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth++) {
    if (e instanceof AggregateError && e.errors.some(databaseUnavailable)) return true;
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && (UNAVAILABLE_SQLSTATE.test(code) || NETWORK_CODES.has(code))) return true;
    if (DRIVER_MESSAGES.has(e.message)) return true;
  }
  return false;
}

/**
 * SQLSTATE class 08 (connection exception), 57P01-57P03 (admin shutdown, crash shutdown, cannot
 * connect now: starting up or shutting down), 53300 (too many connections: another instance's pool
 * took them while this one's were dropped).
 */
const UNAVAILABLE_SQLSTATE = /^(08...|57P0[123]|53300)$/;

/** The socket's own failures, on connecting or on a connection the server dropped. */
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

/** node-postgres says these without a code. */
const DRIVER_MESSAGES = new Set([
  "Connection terminated unexpectedly",
  "Connection terminated",
  "Connection terminated due to connection timeout",
  "Client has encountered a connection error and is not queryable",
  "timeout exceeded when trying to connect",
]);

/**
 * The digest a page's error carries when its database did not answer: in production an error
 * boundary receives the digest and not the message, and the error page then says the service is
 * back in a moment and tries again by itself (components/errors/ErrorView.tsx) rather than that
 * something broke.
 */
export const DATABASE_AWAY_DIGEST = "database-unavailable";

/**
 * `work`, with a database that did not answer rethrown as a page error the error page tells apart.
 * A function, so that what it needs first (the app's context, its first connection) counts too.
 */
/**
 * `databaseUnavailable`, and when it is, this process's note of it (lib/db/away.ts): the one way the
 * pool, the routes, the pages and the outbox tell that they found the database away.
 */
export function noticeDatabaseAway(err: unknown): boolean {
  if (!databaseUnavailable(err)) return false;
  markDatabaseAway();
  return true;
}

export async function orDatabaseAway<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (!noticeDatabaseAway(err)) throw err;
    throw Object.assign(new Error("database unavailable", { cause: err }), { digest: DATABASE_AWAY_DIGEST });
  }
}
