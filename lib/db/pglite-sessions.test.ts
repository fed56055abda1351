import type { Pool, PoolClient } from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openDb, type DbHandle } from "./client";
import { poolOf } from "./testing";

// Several connections share the one embedded backend (lib/db/pglite-sessions.mjs); each must
// behave as a session of its own, as with a Postgres server.
describe("connections to the embedded database", () => {
  let handle: DbHandle;
  let pool: Pool;
  beforeAll(async () => {
    handle = await openDb({ pgliteDir: "memory://", poolSize: 4 });
    pool = poolOf(handle);
    await pool.query("create table entries (v int)");
  });
  afterAll(() => handle.close());
  beforeEach(() => pool.query("delete from entries"));

  const values = async () => (await pool.query<{ v: number }>("select v from entries order by v")).rows.map((r) => r.v);

  // Two connections, both already connected, so that what `b` sends reaches the database before
  // what `a` sends after it.
  async function twoConnections(work: (a: PoolClient, b: PoolClient) => Promise<void>) {
    const [a, b] = [await pool.connect(), await pool.connect()];
    try {
      await work(a, b);
    } finally {
      a.release();
      b.release();
    }
  }

  it("never runs one connection's statement inside another's transaction", async () => {
    await twoConnections(async (a, b) => {
      await a.query("begin");
      await a.query("insert into entries values (1)");
      const other = b.query("insert into entries values (2)");
      await a.query("insert into entries values (3)");
      await a.query("rollback");
      await other;
    });
    expect(await values()).toEqual([2]);
  });

  it("holds the others back after a failed statement until the transaction is rolled back", async () => {
    await twoConnections(async (a, b) => {
      await a.query("begin");
      await a.query("insert into entries values (1)");
      await expect(a.query("select * from no_such_table")).rejects.toThrow("no_such_table");
      const other = b.query("insert into entries values (2)");
      await a.query("rollback");
      await other;
    });
    expect(await values()).toEqual([2]);
  });

  it("shows a transaction's writes to the others only once it commits", async () => {
    let seen: Promise<{ rows: { v: number }[] }> | undefined;
    await twoConnections(async (a, b) => {
      await a.query("begin");
      await a.query("insert into entries values (1)");
      seen = b.query("select v from entries order by v");
      await a.query("insert into entries values (2)");
      await a.query("commit");
    });
    expect((await seen!).rows.map((r) => r.v)).toEqual([1, 2]);
  });

  it("gives each connection its own statement names", async () => {
    await twoConnections(async (a, b) => {
      const statement = (text: string, client: PoolClient) => client.query({ name: "same_name", text });
      expect((await statement("select 'a' as who", a)).rows).toEqual([{ who: "a" }]);
      expect((await statement("select 'b' as who", b)).rows).toEqual([{ who: "b" }]);
      expect((await statement("select 'a' as who", a)).rows).toEqual([{ who: "a" }]);
    });
  });

  it("rolls back what a lost connection left open, lets go of its statements, and goes on answering", async () => {
    const preparedNamed = async (name: string) =>
      (
        await pool.query<{ n: number }>("select count(*)::int as n from pg_prepared_statements where name like $1", [
          `%.${name}`,
        ])
      ).rows[0]!.n;
    const a = await pool.connect();
    await a.query({ name: "lost_one", text: "select 1" });
    expect(await preparedNamed("lost_one")).toBe(1);
    await a.query("begin");
    await a.query("insert into entries values (1)");
    // The pool destroys a client released with an error, as it does after a broken connection.
    a.release(new Error("gone"));
    await pool.query("insert into entries values (2)");
    expect(await values()).toEqual([2]);
    expect(await preparedNamed("lost_one")).toBe(0);
  });
});
