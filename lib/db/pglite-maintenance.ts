import type { Pool } from "pg";

/**
 * What autovacuum does for a Postgres server, for the embedded database, which has none: PGlite
 * runs Postgres as one process, with no background workers. Without it every update and delete
 * leaves its dead row behind for good, the planner has no statistics, and old transaction ids are
 * never frozen (after about two billion write transactions Postgres stops taking writes).
 *
 * Each table is vacuumed and analysed on its own, system catalogs included (together, what a
 * database-wide VACUUM covers): the embedded database runs one statement at a time, so a request
 * waits for one table's vacuum at most, not for all of them.
 */
export async function vacuumTables(pool: Pool, stopped: () => boolean = () => false): Promise<void> {
  const { rows } = await pool.query<{ name: string }>(
    `select format('%I.%I', n.nspname, c.relname) as name
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.relkind in ('r', 'm') and n.nspname not like 'pg_temp%' and n.nspname not like 'pg_toast%'
      order by n.nspname, c.relname`,
  );
  for (const { name } of rows) {
    if (stopped()) return;
    await pool.query(`vacuum (analyze) ${name}`);
  }
}

/**
 * Runs `vacuumTables` a minute after the database opens and then every hour, until stopped. A
 * failed pass is logged and the next one tried at its time.
 */
export function maintainEvery(
  pool: Pool,
  opts: { firstAfterMs?: number; everyMs?: number } = {},
): { stop(): Promise<void> } {
  let running: Promise<void> | undefined;
  let stopped = false;
  let timer: NodeJS.Timeout;
  const schedule = (ms: number) => {
    timer = setTimeout(() => {
      running = vacuumTables(pool, () => stopped)
        .catch((err) => {
          if (!stopped)
            console.error(`vacuuming the embedded database failed: ${err instanceof Error ? err.message : err}`);
        })
        .finally(() => {
          running = undefined;
          if (!stopped) schedule(opts.everyMs ?? 60 * 60_000);
        });
    }, ms);
    // Nothing to wait for at exit: the next start runs it again.
    timer.unref();
  };
  schedule(opts.firstAfterMs ?? 60_000);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
