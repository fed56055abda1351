import { serveBackups } from "../backup/socket";
import { env } from "../env";
import { openDb, type Db, type DbHandle } from "./client";

export type { Db, Tx } from "./client";
export * as tables from "./schema";

// One database per process, kept on globalThis so dev-mode reloads do not open the same PGlite
// directory twice (which corrupts it).
const holder = globalThis as unknown as { __checkoutDb?: Promise<DbHandle> };

export function getDb(): Promise<Db> {
  holder.__checkoutDb ??= openDb({
    databaseUrl: env().databaseUrl,
    poolSize: env().databasePoolSize,
    pgliteDir: env().pgliteDir,
    port: env().port,
    // `npm run backup` asks this process while it holds the directory (ADR 37).
    serve: serveBackups,
    // Everything this instance does needs its database, and an embedded one does not come back:
    // it stops with one line, as when the database cannot be opened, for its supervisor to start
    // it again (a Postgres outage is waited out instead; the pool reconnects).
    onLost: (err) => {
      console.error(`${err.message}; stopping`);
      process.exit(1);
    },
  }).catch((err) => {
    holder.__checkoutDb = undefined;
    throw err;
  });
  return holder.__checkoutDb.then((h) => h.db);
}

/** Closes this process's database, if it was opened (shutdown). */
export async function closeDb(): Promise<void> {
  const handle = holder.__checkoutDb;
  holder.__checkoutDb = undefined;
  await (await handle?.catch(() => undefined))?.close();
}
