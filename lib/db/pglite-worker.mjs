// The embedded database's own thread (lib/db/pglite-backend.ts). PGlite is Postgres compiled to
// WASM: on the app's thread every statement blocked the event loop for as long as it ran. Here it
// runs beside it, and the app speaks the Postgres wire protocol to it, as to a server. Plain
// JavaScript: a worker thread loads its file as it is, with no build step in front of it.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { parentPort, workerData } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";
import { gzippedTar, readTree } from "./pglite-dump.mjs";
import { Sessions } from "./pglite-sessions.mjs";

const { dataDir } = workerData;
let db;
try {
  const memory = dataDir === "memory://";
  // The unit run makes one migrated database and sets PGLITE_SEED_FILE to its dump
  // (scripts/vitest.global-setup.ts): a database that does not exist yet starts from it instead of
  // initdb and every migration, seconds each time on this machine. Never set in production.
  const seed = process.env.PGLITE_SEED_FILE;
  const fresh = memory || !existsSync(path.join(dataDir, "PG_VERSION"));
  db = new PGlite({
    dataDir: memory ? undefined : dataDir,
    loadDataDir: seed && fresh ? new Blob([readFileSync(seed)]) : undefined,
  });
  await db.waitReady;
  parentPort.postMessage({ ready: true });
} catch (err) {
  parentPort.postMessage({ failed: String(err?.message ?? err) });
  process.exit(1);
}

const sessions = new Sessions((bytes) => db.execProtocolRaw(bytes));

parentPort.on("message", (message) => {
  if (message.close) {
    void sessions.drain().then(async () => {
      await db.close().catch(() => {});
      parentPort.postMessage({ id: message.id });
      parentPort.close();
    });
  } else if (message.dump) {
    dump().then(
      (result) => parentPort.postMessage({ id: message.id, dump: result }, [result.payload.buffer]),
      (err) => parentPort.postMessage({ id: message.id, failed: String(err?.message ?? err) }),
    );
  } else if (message.ended) {
    sessions.end(message.conn);
  } else {
    sessions.send(message.conn, message.bytes, (answer, failed) => {
      // Posting a view copies the whole buffer under it: a connection's start is answered with a
      // view into PGlite's own.
      if (answer && (answer.byteOffset !== 0 || answer.byteLength !== answer.buffer.byteLength))
        answer = answer.slice();
      parentPort.postMessage(failed ? { id: message.id, failed } : { id: message.id, bytes: answer });
    });
  }
});

/**
 * A backup of the database (lib/backup, ADR 37): its data directory, read between transactions
 * (so it holds each whole or not at all) and after a checkpoint (so its data files are current,
 * and the copy opens without replaying the log). Packed and compressed after the other
 * connections are let in again: only the reading holds them up.
 */
async function dump() {
  const taken = await sessions.exclusive(async () => {
    await db.exec("checkpoint");
    const [version] = (
      await db.query("select current_setting('server_version') as v, current_setting('server_version_num')::int as n")
    ).rows;
    const migrated = (await db.query("select to_regclass('drizzle.__drizzle_migrations') is not null as yes")).rows[0]
      .yes;
    const [migrations] = migrated
      ? (
          await db.query(
            "select count(*)::int as count, max(created_at)::text as last from drizzle.__drizzle_migrations",
          )
        ).rows
      : [{ count: 0, last: null }];
    // PGlite writes straight through to these files (NODEFS): after the checkpoint, with nothing
    // running, they are the database.
    return { version, migrations, files: readTree(dataDir) };
  });
  const payload = new Uint8Array(await gzippedTar(taken.files));
  return {
    pglite: pgliteVersion(),
    postgres: taken.version.v,
    postgresMajor: Math.floor(taken.version.n / 10000),
    migrations: {
      count: taken.migrations.count,
      last: taken.migrations.last === null ? null : Number(taken.migrations.last),
    },
    payload,
  };
}

function pgliteVersion() {
  // From the working folder, as the migrations are read: Next bundles this file into its server,
  // where import.meta.resolve is not Node's (found under next start).
  try {
    const file = path.join(process.cwd(), "node_modules/@electric-sql/pglite/package.json");
    return JSON.parse(readFileSync(file, "utf8")).version;
  } catch {
    return "unknown"; // a restore then lets the database's opening decide (lib/backup/embedded.ts)
  }
}
