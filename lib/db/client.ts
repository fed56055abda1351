import { mkdirSync } from "node:fs";
import path from "node:path";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type { ClientConfig, Pool as PgPool } from "pg";
import { markDatabaseBack } from "./away";
import { autovacuumEvery } from "./pglite-autovacuum";
import { startPgliteBackend, type PgliteBackend } from "./pglite-backend";
import { lockPgliteDir } from "./pglite-lock";
import { countPoolTrips, countingRoundTrips } from "./round-trips";
import * as schema from "./schema";
import { noticeDatabaseAway } from "./unavailable";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction of the app's database, as `db.transaction` hands it over. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export interface DbHandle {
  db: Db;
  kind: "pglite" | "postgres";
  close(): Promise<void>;
}

const migrationsFolder = () => path.join(process.cwd(), "lib/db/migrations");

/**
 * Opens the database and brings its schema up to date. Postgres when a URL is given; otherwise
 * embedded PGlite, on disk under `pgliteDir` or in memory when that is "memory://".
 */
export async function openDb(opts: {
  databaseUrl?: string;
  pgliteDir?: string;
  port?: number;
  /** Database connections of this process (DATABASE_POOL_SIZE). */
  poolSize?: number;
  /** Called if the embedded database's thread stops without being closed. */
  onLost?: (err: Error) => void;
  /** Postgres: how long a query waits for a connection, new or from the pool, before it fails. */
  connectTimeoutMs?: number;
  /**
   * Embedded, on disk: started once the database is open, with what copies it, and stopped before
   * it closes (the app serves `npm run backup` this way, ADR 37). Returns how to stop it.
   */
  serve?: (dir: string, dump: PgliteBackend["dump"]) => Promise<() => Promise<void>>;
}): Promise<DbHandle> {
  const poolSize = opts.poolSize ?? 10;
  if (opts.databaseUrl) {
    const { Pool } = await import("pg");
    // Without a bound, a server that takes connections and never answers (a host gone in a
    // failover) holds every request until the kernel gives up, minutes later; with it they are
    // answered 503 (lib/db/unavailable.ts), and a load balancer's readiness check has its answer.
    const pool = new Pool({
      connectionString: opts.databaseUrl,
      max: poolSize,
      connectionTimeoutMillis: opts.connectTimeoutMs ?? 10_000,
    });
    return { db: await overPool(pool, { migrationLock: true }), kind: "postgres", close: () => pool.end() };
  }
  const dir = opts.pgliteDir ?? ".data/pglite";
  let unlock = () => {};
  if (dir !== "memory://") {
    // Before anything touches the directory: a second process on it would destroy it.
    unlock = await lockPgliteDir(dir, { port: opts.port });
    mkdirSync(dir, { recursive: true });
  }
  let backend: PgliteBackend | undefined;
  let pool: PgPool | undefined;
  let stopUpkeep: (() => Promise<void>) | undefined;
  let stopServing: (() => Promise<void>) | undefined;
  const close = async () => {
    await stopServing?.();
    await stopUpkeep?.();
    // Not waited for: a connection still checked out (a background job's, at shutdown) would hold
    // the close up; the database closes under it.
    void pool?.end().catch(() => {});
    await (backend?.close() ?? Promise.resolve()).finally(unlock);
  };
  try {
    backend = await startPgliteBackend(dir, { onLost: opts.onLost });
    pool = await pglitePool(backend, poolSize);
    const db = await overPool(pool, { migrationLock: false });
    stopUpkeep = autovacuumEvery(pool);
    if (dir !== "memory://" && opts.serve) stopServing = await opts.serve(dir, () => backend!.dump());
    return { db, kind: "pglite", close };
  } catch (err) {
    await close().catch(() => {});
    throw err;
  }
}

/**
 * PGlite spoken to as a Postgres server over node-postgres: named statements are parsed and planned
 * once, where PGlite's own query() plans every statement again (1.2 ms against 0.35 ms for the
 * status read; issue 19), and both databases share one driver, with the same types and the same
 * transactions. PGlite is one backend; its thread keeps each connection's transactions and
 * statement names apart (lib/db/pglite-sessions.mjs), so several requests' statements can wait
 * there instead of in the pool while the app's thread is busy with something else.
 */
async function pglitePool(backend: PgliteBackend, max: number): Promise<PgPool> {
  const { Pool, Client } = await import("pg");
  class PgliteClient extends Client {
    constructor(config: ClientConfig = {}) {
      super({ ...config, stream: () => backend.socket() } as ClientConfig);
    }
  }
  // Kept once made: a connection's statements are parsed again on a new one. One role, one database.
  return new Pool({ max, idleTimeoutMillis: 0, Client: PgliteClient, user: "postgres", database: "postgres" });
}

/** drizzle over a node-postgres pool, with the schema brought up to date. */
async function overPool(pool: PgPool, opts: { migrationLock: boolean }): Promise<Db> {
  const { drizzle } = await import("drizzle-orm/node-postgres");
  const { migrate } = await import("drizzle-orm/node-postgres/migrator");
  // An idle connection dropped by the server (a restart, a failover) must not crash the process;
  // the pool replaces it on the next query.
  pool.on("error", (err) => {
    noticeDatabaseAway(err);
    console.error("database connection lost:", err.message);
  });
  // A new connection made is the database answering again (lib/db/away.ts).
  pool.on("connect", markDatabaseBack);
  if (countingRoundTrips) countPoolTrips(pool);
  const db = drizzle(pool, { schema });
  // Several app processes may start at once against one server: migrate under a lock, held on a
  // connection of its own while the migration runs on another. PGlite has one process (its
  // directory lock).
  if (!opts.migrationLock) {
    await migrate(db, { migrationsFolder: migrationsFolder() });
  } else {
    const client = await pool.connect();
    try {
      await client.query("select pg_advisory_lock(727274)");
      await migrate(db, { migrationsFolder: migrationsFolder() });
    } finally {
      await client.query("select pg_advisory_unlock(727274)").catch(() => {});
      client.release();
    }
  }
  return db as unknown as Db;
}
