import { mkdirSync } from "node:fs";
import path from "node:path";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { lockPgliteDir } from "./pglite-lock";
import { installDrizzleParsers } from "./pglite-parsers";
import { countingRoundTrips, countPgliteTrips, countTrips } from "./round-trips";
import * as schema from "./schema";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

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
  /** Postgres connections of this process (DATABASE_POOL_SIZE). */
  poolSize?: number;
}): Promise<DbHandle> {
  if (opts.databaseUrl) {
    const { Pool } = await import("pg");
    const { drizzle } = await import("drizzle-orm/node-postgres");
    const { migrate } = await import("drizzle-orm/node-postgres/migrator");
    const pool = new Pool({ connectionString: opts.databaseUrl, max: opts.poolSize ?? 10 });
    // An idle connection dropped by the server (a restart, a failover) must not crash the process;
    // the pool replaces it on the next query.
    pool.on("error", (err) => console.error("database connection lost:", err.message));
    // Every statement, a transaction's BEGIN and COMMIT included, goes through a client's query.
    if (countingRoundTrips) pool.on("connect", (c) => countTrips(c, ["query"]));
    const db = drizzle(pool, { schema });
    // Several app processes may start at once against one server: migrate under a lock.
    const client = await pool.connect();
    try {
      await client.query("select pg_advisory_lock(727274)");
      await migrate(db, { migrationsFolder: migrationsFolder() });
    } finally {
      await client.query("select pg_advisory_unlock(727274)").catch(() => {});
      client.release();
    }
    return { db: db as unknown as Db, kind: "postgres", close: () => pool.end() };
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  const dir = opts.pgliteDir ?? ".data/pglite";
  let client: InstanceType<typeof PGlite>;
  let unlock = () => {};
  if (dir === "memory://") {
    client = new PGlite();
  } else {
    // Before anything touches the directory: a second process on it would destroy it.
    unlock = await lockPgliteDir(dir, { port: opts.port });
    mkdirSync(dir, { recursive: true });
    client = new PGlite(dir);
  }
  try {
    await installDrizzleParsers(client);
    if (countingRoundTrips) countPgliteTrips(client);
    const db = drizzle(client, { schema });
    await migrate(db, { migrationsFolder: migrationsFolder() });
    return { db: db as unknown as Db, kind: "pglite", close: () => client.close().finally(unlock) };
  } catch (err) {
    await client.close().catch(() => {});
    unlock();
    throw err;
  }
}
