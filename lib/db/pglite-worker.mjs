// The embedded database's own thread (lib/db/pglite-backend.ts). PGlite is Postgres compiled to
// WASM: on the app's thread every statement blocked the event loop for as long as it ran. Here it
// runs beside it, and the app speaks the Postgres wire protocol to it, as to a server. Plain
// JavaScript: a worker thread loads its file as it is, with no build step in front of it.
import { parentPort, workerData } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";
import { Sessions } from "./pglite-sessions.mjs";

const { dataDir } = workerData;
let db;
try {
  db = new PGlite(dataDir === "memory://" ? undefined : dataDir);
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
