import { createHash } from "node:crypto";
import { chmodSync, unlinkSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { encodeBackup, knownMigrations, type Dump } from "./format";

/*
 * How `npm run backup` reaches a running app (ADR 37): the process that has the embedded database
 * open listens on a Unix socket beside its directory, `<dir>.sock`, and answers "backup" with a
 * whole backup file. A socket, not an HTTP route: nothing of it is reachable from the network or
 * through a proxy, and the file's mode (0600) keeps it to the user the app runs as.
 */

const REQUEST = "backup\n";
const statusLine = z.discriminatedUnion("ok", [
  z.object({ ok: z.literal(true), bytes: z.number().int().min(0) }),
  z.object({ ok: z.literal(false), error: z.string() }),
]);

/**
 * Beside the directory; in the temporary folder, named by the directory, when that path is longer
 * than a Unix socket's path may be (108 bytes on Linux).
 */
export function backupSocketPath(dir: string): string {
  const beside = `${path.resolve(dir)}.sock`;
  if (Buffer.byteLength(beside) < 100) return beside;
  const hash = createHash("sha256").update(path.resolve(dir)).digest("hex").slice(0, 16);
  return path.join(os.tmpdir(), `pglite-${hash}.sock`);
}

/**
 * Serves backups of the database at `dir` (whose lock this process holds) until the returned
 * function is called. A socket that cannot be made costs the app nothing: it says so once, and
 * `npm run backup` then says the app does not answer.
 */
export async function serveBackups(dir: string, dump: () => Promise<Dump>): Promise<() => Promise<void>> {
  const file = backupSocketPath(dir);
  // One at a time: each holds a copy of the whole database in memory.
  let queue: Promise<unknown> = Promise.resolve();
  const server = net.createServer((conn) => {
    let asked = "";
    conn.setEncoding("utf8");
    conn.on("error", () => {}); // a client gone mid-answer
    conn.on("data", (chunk: string) => {
      asked += chunk;
      if (!asked.includes("\n") && asked.length < REQUEST.length) return;
      conn.removeAllListeners("data");
      if (asked !== REQUEST) return conn.end(`${JSON.stringify({ ok: false, error: "unknown request" })}\n`);
      const take = async () => encodeBackup(await dump(), knownMigrations());
      const answer = queue.then(take, take);
      queue = answer.catch(() => {});
      answer.then(
        (bytes) => {
          conn.write(`${JSON.stringify({ ok: true, bytes: bytes.length })}\n`);
          conn.end(bytes);
        },
        (err: Error) => conn.end(`${JSON.stringify({ ok: false, error: err.message.split("\n")[0] })}\n`),
      );
    });
  });
  // The lock is ours, so a socket file left there is from a holder that was killed.
  removeIfThere(file);
  const listening = await new Promise<boolean>((resolve) => {
    server.once("error", (err) => {
      console.error(`backups of the embedded database are not served at ${file}: ${err.message}`);
      resolve(false);
    });
    server.listen(file, () => resolve(true));
  });
  if (!listening) return async () => {};
  chmodSync(file, 0o600);
  server.unref(); // never what keeps a process alive
  return async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    removeIfThere(file);
  };
}

function removeIfThere(file: string) {
  try {
    unlinkSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
}

/**
 * A backup file from the app that has `dir` open, or undefined when none answers at its socket (no
 * app runs, or it is starting or was killed).
 */
export async function askRunningApp(dir: string): Promise<Buffer | undefined> {
  const file = backupSocketPath(dir);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let connected = false;
    const conn = net.connect(file, () => {
      connected = true;
      conn.write(REQUEST);
    });
    conn.on("data", (c: Buffer) => chunks.push(c));
    conn.on("error", (err: NodeJS.ErrnoException) => {
      if (!connected && ["ENOENT", "ECONNREFUSED", "ENOTSOCK"].includes(err.code ?? "")) resolve(undefined);
      else reject(new Error(`the app serving ${dir} broke off the backup: ${err.message}`));
    });
    conn.on("end", () => {
      const all = Buffer.concat(chunks);
      const nl = all.indexOf(0x0a);
      const parsed = statusLine.safeParse(nl < 0 ? undefined : safeJson(all.subarray(0, nl).toString("utf8")));
      if (!parsed.success) return reject(new Error(`the app serving ${dir} answered the backup with something else`));
      if (!parsed.data.ok)
        return reject(new Error(`the app serving ${dir} could not take the backup: ${parsed.data.error}`));
      const body = all.subarray(nl + 1);
      if (body.length !== parsed.data.bytes)
        return reject(
          new Error(`the app serving ${dir} stopped within the backup (${body.length} of ${parsed.data.bytes} bytes)`),
        );
      resolve(body);
    });
  });
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
