import { sql } from "drizzle-orm";
import { Pool } from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { databaseAwayHint, markDatabaseAway, markDatabaseBack } from "./away";
import { openDb } from "./client";
import { createTestPostgresDatabase, poolOf } from "./testing";

afterEach(markDatabaseBack);

describe("this process's hint that its database is away", () => {
  it("holds from the moment the database was found away, and lapses by itself seconds later", () => {
    expect(databaseAwayHint()).toBe(false);
    markDatabaseAway(1_000_000);
    expect(databaseAwayHint(1_000_000)).toBe(true);
    expect(databaseAwayHint(1_009_999)).toBe(true);
    // A page is not held back long after the database is back, even if nothing connected since.
    expect(databaseAwayHint(1_010_000)).toBe(false);
  });

  it("ends when the database is back", () => {
    markDatabaseAway();
    markDatabaseBack();
    expect(databaseAwayHint()).toBe(false);
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)("on Postgres", () => {
  it("is set when the server ends the pool's connections (a restart), and cleared by the next connection", async () => {
    const { url, drop } = await createTestPostgresDatabase();
    const handle = await openDb({ databaseUrl: url, poolSize: 2 });
    const admin = new Pool({ connectionString: url, max: 1 });
    try {
      await handle.db.execute(sql`select 1`); // an idle connection in the pool
      markDatabaseBack();
      // What `pg_ctl stop -m fast` does to every session: 57P01 admin_shutdown, here to the idle ones.
      await admin.query(
        "select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()",
      );
      await expect.poll(() => databaseAwayHint(), { timeout: 5_000 }).toBe(true);
      await expect.poll(() => poolOf(handle).totalCount, { timeout: 5_000 }).toBe(0); // every one dropped
      await handle.db.execute(sql`select 1`);
      expect(databaseAwayHint()).toBe(false);
    } finally {
      await admin.end();
      await handle.close();
      await drop();
    }
  });
});
