import type { Pool } from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDb, type DbHandle } from "./client";
import { maintainEvery, vacuumTables } from "./pglite-maintenance";

describe("the embedded database's upkeep (it has no autovacuum)", () => {
  let handle: DbHandle;
  let pool: Pool;
  beforeAll(async () => {
    handle = await openDb({ pgliteDir: "memory://" });
    pool = (handle.db as unknown as { $client: Pool }).$client;
  });
  afterAll(() => handle.close());

  const stats = async (table: string) => {
    // Statistics reach the views when a session goes idle; make it the next statement.
    await pool.query("select pg_stat_force_next_flush()");
    return (
      await pool.query<{ dead: number; vacuumed: boolean; estimate: number }>(
        `select s.n_dead_tup::int as dead, s.last_vacuum is not null as vacuumed, c.reltuples::int as estimate
           from pg_stat_user_tables s join pg_class c on c.oid = s.relid where s.relname = $1`,
        [table],
      )
    ).rows[0]!;
  };

  async function tableWithDeadRows(table: string) {
    await pool.query(`create table ${table} (id int primary key, n int)`);
    await pool.query(`insert into ${table} select i, 0 from generate_series(1, 2000) i`);
    await pool.query(`update ${table} set n = n + 1`);
    await pool.query(`delete from ${table} where id > 1500`);
  }

  it("clears dead rows and gives the planner statistics, the app's tables and the catalogs alike", async () => {
    await tableWithDeadRows("churned");
    const before = await stats("churned");
    expect(before.dead).toBeGreaterThan(0);
    expect(before).toMatchObject({ vacuumed: false, estimate: -1 });
    await vacuumTables(pool);
    expect(await stats("churned")).toEqual({ dead: 0, vacuumed: true, estimate: 1500 });
    const catalogs = await pool.query<{ n: number }>(
      "select count(*)::int as n from pg_stat_sys_tables where schemaname = 'pg_catalog' and last_vacuum is null and relname in ('pg_class', 'pg_attribute', 'pg_type')",
    );
    expect(catalogs.rows[0]!.n).toBe(0);
  });

  it("runs on its own once the database has been open a while", async () => {
    await tableWithDeadRows("churned_later");
    const upkeep = maintainEvery(pool, { firstAfterMs: 50, everyMs: 60_000 });
    try {
      await expect.poll(async () => (await stats("churned_later")).vacuumed, { timeout: 20_000 }).toBe(true);
      expect((await stats("churned_later")).dead).toBe(0);
    } finally {
      await upkeep.stop();
    }
  });
});
