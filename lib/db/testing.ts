import { randomBytes } from "node:crypto";
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
export async function openTestDb(kind: DbKind): Promise<DbHandle> {
  if (kind === "pglite") return openDb({ pgliteDir: "memory://" });
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error("TEST_DATABASE_URL is not set");
  const { Client } = await import("pg");
  const name = `t_${randomBytes(6).toString("hex")}`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const handle = await openDb({ databaseUrl: url.toString() });
  return {
    ...handle,
    close: async () => {
      await handle.close();
      const a = new Client({ connectionString: adminUrl });
      await a.connect();
      await a.query(`drop database if exists ${name} with (force)`);
      await a.end();
    },
  };
}
