import type { Pool } from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDb, type DbHandle } from "./client";
import { autovacuum, autovacuumEvery } from "./pglite-autovacuum";
import { poolOf } from "./testing";

describe("the embedded database's autovacuum (PGlite has none of its own)", () => {
  let handle: DbHandle;
  let pool: Pool;
  beforeAll(async () => {
    handle = await openDb({ pgliteDir: "memory://" });
    pool = poolOf(handle);
  });
  afterAll(() => handle.close());

  const table = async (name: string) => {
    // Counters reach the views when the database is next idle: make that before the read.
    await pool.query("select pg_stat_force_next_flush()");
    const { rows } = await pool.query<{
      dead: number;
      vacuumed: boolean;
      analysed: boolean;
      estimate: number;
      seqScans: number;
      indexScans: number;
      xidAge: number;
    }>(
      `select s.n_dead_tup::int as dead, s.vacuum_count > 0 as vacuumed, s.analyze_count > 0 as analysed,
              c.reltuples::int as estimate, s.seq_scan::int as "seqScans", coalesce(s.idx_scan, 0)::int as "indexScans",
              age(c.relfrozenxid) as "xidAge"
         from pg_stat_user_tables s join pg_class c on c.oid = s.relid where s.relname = $1`,
      [name],
    );
    return rows[0]!;
  };

  it("clears a table's dead rows once they pass autovacuum's threshold, and leaves a table under ten pages alone", async () => {
    await pool.query("create table churned (id int primary key, n int)");
    await pool.query("insert into churned select i, 0 from generate_series(1, 3000) i");
    await pool.query("update churned set n = n + 1");
    await pool.query("create table tiny (id int primary key, n int)");
    await pool.query("insert into tiny select i, 0 from generate_series(1, 30) i");
    for (let i = 0; i < 5; i++) await pool.query("update tiny set n = n + 1");
    expect(await table("churned")).toMatchObject({ dead: 3000, vacuumed: false, estimate: -1 });
    expect((await table("tiny")).dead).toBe(150);

    const done = await autovacuum(pool);

    expect(done.vacuumed).toContain("public.churned");
    expect(await table("churned")).toMatchObject({ dead: 0, vacuumed: true, analysed: true, estimate: 3000 });
    expect(done.vacuumed).not.toContain("public.tiny");
    expect(await table("tiny")).toMatchObject({ dead: 150, vacuumed: false, analysed: false, estimate: -1 });
    // Nothing is due again until the tables change.
    const again = await autovacuum(pool);
    expect([...again.vacuumed, ...again.analysed].filter((n) => n.startsWith("public."))).toEqual([]);
  });

  it("analyses a table that grew, so that its prepared lookups use the index again", async () => {
    const lookup = { name: "grown_lookup", text: "select n from grown where id = $1" };
    await pool.query("create table grown (id text primary key, n int, pad text)");
    await pool.query("insert into grown select 'k' || i, i, repeat('x', 20) from generate_series(1, 100) i");
    const lookups = async () => {
      const client = await pool.connect();
      try {
        for (let i = 0; i < 10; i++) await client.query({ ...lookup, values: [`k${i * 1000 + 7}`] });
      } finally {
        client.release();
      }
    };
    // Vacuumed and analysed small (as a pass on a clock did), and the lookup prepared then: its
    // plan is made for one page, a sequential scan, and kept.
    await pool.query("vacuum (analyze) grown");
    await lookups();
    await pool.query("insert into grown select 'k' || i, i, repeat('x', 20) from generate_series(101, 20000) i");
    const before = await table("grown");
    await lookups();
    const stale = await table("grown");
    expect(stale.seqScans - before.seqScans).toBe(10); // each lookup read all 20,000 rows

    expect((await autovacuum(pool)).analysed).toContain("public.grown");
    await lookups();
    const after = await table("grown");
    expect(after.seqScans).toBe(stale.seqScans);
    expect(after.indexScans).toBe(stale.indexScans + 10);
  });

  it("freezes a table whose oldest transaction id has passed the freeze age, small or not", async () => {
    await pool.query("create table old_rows (id int primary key)");
    await pool.query("insert into old_rows values (1)");
    for (let i = 0; i < 30; i++) await pool.query("select txid_current()"); // 30 transactions later
    expect((await table("old_rows")).xidAge).toBeGreaterThanOrEqual(30);

    const done = await autovacuum(pool, { freezeAge: 20 });

    expect(done.frozen).toContain("public.old_rows");
    expect((await table("old_rows")).xidAge).toBeLessThan(5);
  });

  it("runs on its own, every so often", async () => {
    await pool.query("create table churned_later (id int primary key, n int)");
    await pool.query("insert into churned_later select i, 0 from generate_series(1, 3000) i");
    await pool.query("update churned_later set n = n + 1");
    const stop = autovacuumEvery(pool, 100);
    try {
      await expect.poll(async () => (await table("churned_later")).vacuumed, { timeout: 20_000 }).toBe(true);
      expect((await table("churned_later")).dead).toBe(0);
    } finally {
      await stop();
    }
  });
});
