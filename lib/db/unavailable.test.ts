import { createServer, type Server } from "node:net";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { databaseAwayHint, markDatabaseBack } from "./away";
import { openDb } from "./client";
import { createTestPostgresDatabase } from "./testing";
import { DATABASE_AWAY_DIGEST, databaseUnavailable, orDatabaseAway } from "./unavailable";
import { closedPort } from "../test-helpers/closed-port";

const silent: Server[] = [];
afterAll(() => silent.forEach((s) => s.close()));

/** A server that takes the connection and never answers: a host that hangs (a failover in progress). */
async function silentPort(): Promise<number> {
  const s = createServer(() => {});
  silent.push(s);
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  return (s.address() as { port: number }).port;
}

/** What the app's own query throws, through drizzle, as a route handler sees it. */
async function failureOf(query: () => Promise<unknown>): Promise<unknown> {
  return query().then(
    () => expect.fail("the query answered"),
    (err: unknown) => err,
  );
}

describe("a database that does not answer, told apart from a bug", () => {
  it("is unavailable when nothing listens on its port (down, or restarting)", async () => {
    const port = await closedPort();
    const { Pool } = await import("pg");
    const { drizzle } = await import("drizzle-orm/node-postgres");
    const pool = new Pool({ connectionString: `postgres://postgres@127.0.0.1:${port}/postgres` });
    const err = await failureOf(() => drizzle(pool).execute(sql`select 1`));
    expect(databaseUnavailable(err)).toBe(true);
    await pool.end();
  });

  it("is unavailable, within the connect timeout, when it takes the connection and never answers", async () => {
    const port = await silentPort();
    const started = Date.now();
    const err = await failureOf(() =>
      openDb({ databaseUrl: `postgres://postgres@127.0.0.1:${port}/postgres`, connectTimeoutMs: 300 }),
    );
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(databaseUnavailable(err)).toBe(true);
  });

  it("reaches a page's error boundary as the digest the error page tells apart, and a bug does not", async () => {
    const port = await closedPort();
    const { Pool } = await import("pg");
    const { drizzle } = await import("drizzle-orm/node-postgres");
    const pool = new Pool({ connectionString: `postgres://postgres@127.0.0.1:${port}/postgres` });
    const away = await failureOf(() => orDatabaseAway(() => drizzle(pool).execute(sql`select 1`)));
    expect(away).toMatchObject({ digest: DATABASE_AWAY_DIGEST });
    expect(databaseUnavailable(away)).toBe(true);
    // and the instance's next pages answer 503 at once (proxy.ts)
    expect(databaseAwayHint()).toBe(true);
    markDatabaseBack();
    await pool.end();

    const bug = new TypeError("checkout.lineItems is undefined");
    expect(await failureOf(() => orDatabaseAway(() => Promise.reject(bug)))).toBe(bug);
    expect(databaseAwayHint()).toBe(false);
    expect(await orDatabaseAway(() => Promise.resolve("page data"))).toBe("page data");
  });

  it("is not unavailable for an error of ours", () => {
    expect(databaseUnavailable(new Error("connection reset by the merchant's server"))).toBe(false);
    expect(databaseUnavailable(undefined)).toBe(false);
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)("on Postgres", () => {
  it("is unavailable when the server ends the session (a fast shutdown), not when a statement fails", async () => {
    const { url, drop } = await createTestPostgresDatabase();
    const handle = await openDb({ databaseUrl: url, poolSize: 2 });
    try {
      const victim = handle.db.execute(sql`select pg_sleep(5)`);
      const caught = victim.catch((err: unknown) => err);
      await new Promise((r) => setTimeout(r, 200));
      // What `pg_ctl stop -m fast` does to every session: 57P01 admin_shutdown.
      await handle.db.execute(
        sql`select pg_terminate_backend(pid) from pg_stat_activity where query like 'select pg_sleep%' and pid <> pg_backend_pid()`,
      );
      expect(databaseUnavailable(await caught)).toBe(true);
      expect(databaseUnavailable(await failureOf(() => handle.db.execute(sql`select 1 / 0`)))).toBe(false);
    } finally {
      await handle.close();
      await drop();
    }
  });
});
