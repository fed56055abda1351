import type { Pool } from "pg";
import { everyInterval } from "../rounds";

/**
 * What autovacuum does for a Postgres server, for the embedded database, which has none (PGlite
 * is Postgres as one process, with no background workers). Without it every update and delete
 * leaves its dead row for good, and transaction ids are never frozen: after about two billion
 * write transactions Postgres stops taking writes (ADR 22).
 *
 * It decides as autovacuum does, by the database's own settings and activity counters: a table is
 * vacuumed once its dead rows pass `autovacuum_vacuum_threshold` plus
 * `autovacuum_vacuum_scale_factor` of its rows (or its inserts since the last vacuum pass the
 * insert threshold), and analysed once its changes since the last analysis pass the analyse
 * threshold. Any table whose oldest transaction id is older than `vacuum_freeze_table_age` is
 * vacuumed with FREEZE, small or not.
 *
 * The plans are why it is no simpler. The hot statements are prepared, and a prepared statement
 * keeps its plan until the statistics of a table it reads change. A table vacuumed or analysed
 * while small is planned as small (a sequential scan); one never vacuumed is planned as at least
 * ten pages (index scans). A pass that vacuumed every table on a clock left plans made at a few
 * hundred rows in place while the tables grew to thousands, and PGlite's writes cost up to 2.7
 * times more. So a table under ten pages is left alone (it cannot hide much bloat), and a growing
 * table is analysed again, and so planned again, each time it grows by a tenth.
 */
export async function autovacuum(
  pool: Pool,
  /** `freezeAge`: in transactions; the database's `vacuum_freeze_table_age` when not given. */
  opts: { freezeAge?: number } = {},
): Promise<{ vacuumed: string[]; analysed: string[]; frozen: string[] }> {
  // The counters of the statements just run reach the views when the database is next idle.
  await pool.query("select pg_stat_force_next_flush()");
  const { rows } = await pool.query<{ name: string; vacuum: boolean; analyze: boolean; freeze: boolean }>(DUE, [
    opts.freezeAge ?? null,
  ]);
  const done = { vacuumed: [] as string[], analysed: [] as string[], frozen: [] as string[] };
  // Table by table: the embedded database runs one statement at a time, so a request waits for
  // one table's upkeep at most.
  for (const { name, vacuum, analyze, freeze } of rows) {
    const options = [freeze && "freeze", analyze && "analyze"].filter(Boolean).join(", ");
    await pool.query(vacuum || freeze ? `vacuum ${options && `(${options}) `}${name}` : `analyze ${name}`);
    if (vacuum || freeze) done.vacuumed.push(name);
    if (analyze) done.analysed.push(name);
    if (freeze) done.frozen.push(name);
  }
  return done;
}

/** The tables due (the app's and the system catalogs), with what each is due for. */
const DUE = `
  with setting as (
    select current_setting('autovacuum_vacuum_threshold')::float8 as vacuum_base,
           current_setting('autovacuum_vacuum_scale_factor')::float8 as vacuum_scale,
           current_setting('autovacuum_vacuum_insert_threshold')::float8 as insert_base,
           current_setting('autovacuum_vacuum_insert_scale_factor')::float8 as insert_scale,
           current_setting('autovacuum_analyze_threshold')::float8 as analyze_base,
           current_setting('autovacuum_analyze_scale_factor')::float8 as analyze_scale,
           coalesce($1::float8, current_setting('vacuum_freeze_table_age')::float8) as freeze_age
  ), due as (
    select format('%I.%I', t.schemaname, t.relname) as name,
           sized and (t.n_dead_tup > vacuum_base + vacuum_scale * greatest(c.reltuples, 0)
                      or t.n_ins_since_vacuum > insert_base + insert_scale * greatest(c.reltuples, 0)) as "vacuum",
           sized and t.n_mod_since_analyze > analyze_base + analyze_scale * greatest(c.reltuples, 0) as "analyze",
           age(c.relfrozenxid) > freeze_age as "freeze"
      from pg_stat_all_tables t join pg_class c on c.oid = t.relid, setting,
           lateral (select pg_relation_size(c.oid) >= 10 * current_setting('block_size')::int as sized) size
     where c.relkind in ('r', 'm')
  )
  select name, "vacuum", "analyze", "freeze" from due where "vacuum" or "analyze" or "freeze" order by name`;

/**
 * Runs `autovacuum` every `everyMs` until stopped (the stop it returns waits for a round under
 * way); a failed round is logged and the next one tried at its time. Every 15 s rather than
 * autovacuum's minute: an embedded database's tables can grow by thousands of rows in a minute (a
 * burst of payers, the bench), and until the next round they are read with the plans of their old
 * size. A round with nothing due is two queries, 5-11 ms of the database's thread.
 */
export function autovacuumEvery(pool: Pool, everyMs = 15_000): () => Promise<void> {
  return everyInterval(
    () => autovacuum(pool),
    everyMs,
    (err) => console.error(`vacuuming the embedded database failed: ${err instanceof Error ? err.message : err}`),
    "autovacuum",
  );
}
