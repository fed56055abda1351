import { randomBytes } from "node:crypto";
import type { Pool } from "pg";
import { openDb, type DbHandle } from "./client";

export type DbKind = "pglite" | "postgres";

/** The databases the suite runs against: PGlite always, Postgres when `npm test` started one. */
export function testDbKinds(): DbKind[] {
  return process.env.TEST_DATABASE_URL ? ["pglite", "postgres"] : ["pglite"];
}

/**
 * A fresh, migrated database for one test file: in-memory PGlite, or a new database on the
 * throwaway Postgres server (dropped on close), so files running in parallel never share rows.
 */
export async function openTestDb(kind: DbKind): Promise<DbHandle & { url?: string }> {
  if (kind === "pglite") return openDb({ pgliteDir: "memory://" });
  const { url, drop } = await createTestPostgresDatabase();
  const handle = await openDb({ databaseUrl: url });
  return {
    ...handle,
    url,
    close: async () => {
      await handle.close();
      await drop();
    },
  };
}

/** The node-postgres pool under a handle's drizzle database, for tests that speak to it directly. */
export function poolOf(handle: DbHandle): Pool {
  return (handle.db as unknown as { $client: Pool }).$client;
}

/** A new empty database on the throwaway Postgres server, for code that opens its own connection. */
export async function createTestPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error("TEST_DATABASE_URL is not set");
  const { Client } = await import("pg");
  const name = `t_${randomBytes(6).toString("hex")}`;
  const run = async (sql: string) => {
    const admin = new Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(sql);
    await admin.end();
  };
  await run(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`drop database if exists ${name} with (force)`) };
}
