import { randomUUID } from "node:crypto";
import {
  closeSync,
  existsSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";

/**
 * One process at a time on an embedded database directory (PGlite has no lock of its own, and two
 * processes on one directory destroy it). A lock file beside the directory, `<dir>.lock`, names
 * the processes using it; a second process is refused while any of them is alive. Node has no
 * flock, so "alive" is the pid answering signal 0 with the start time it had when it wrote the
 * file (a pid reused after a reboot or kill -9 is not the holder). The process that takes the
 * lock hands its token to its children in PGLITE_LOCK_TOKEN: `npm start` holds it for its whole
 * life and the `next start` it runs joins, so no stranger slips in between.
 */

export const PGLITE_LOCK_ENV = "PGLITE_LOCK_TOKEN";

interface Holder {
  pid: number;
  /** The process's start time (/proc/<pid>/stat field 22), to tell a reused pid apart. */
  since?: string;
}

interface LockFile {
  pid: number;
  port?: number;
  token: string;
  holders: Holder[];
}

function startTimeOf(pid: number): string | undefined {
  try {
    // The command name (field 2) may hold spaces and parentheses: count fields after the last ')'.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
  } catch {
    return undefined;
  }
}

function isAlive(h: Holder): boolean {
  try {
    process.kill(h.pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  return h.since === undefined || !existsSync("/proc/self/stat") || startTimeOf(h.pid) === h.since;
}

function read(file: string): LockFile | undefined {
  try {
    const parsed = JSON.parse(readFileSync(file, "utf8")) as LockFile;
    return Array.isArray(parsed.holders) ? parsed : { ...parsed, holders: [{ pid: parsed.pid }] };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    // Half-written by a process killed mid-write: nobody can be proven to hold it.
    return { pid: 0, token: "", holders: [] };
  }
}

/** Rewrites the file in one step (rename), so a reader never sees half of it. */
function write(file: string, lock: LockFile) {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(lock));
  renameSync(tmp, file);
}

function inUse(dir: string, lock: LockFile, live: Holder[]): Error {
  const owner = live.find((h) => h.pid === lock.pid) ?? live[0]!;
  const serving = lock.port ? `, serving http://localhost:${lock.port}` : "";
  return new Error(
    `The embedded database ${dir} is in use by another process (pid ${owner.pid}${serving}). Stop it first, or set PGLITE_DIR / DATABASE_URL.`,
  );
}

/**
 * Removes a lock whose holders are all gone. Only one process may do it at a time (a second file,
 * created exclusively), and only if the file still holds the stale lock it saw: otherwise two
 * processes could each take a fresh lock after the other removed the old one.
 */
function removeStale(file: string, stale: LockFile) {
  const guard = `${file}.takeover`;
  try {
    closeSync(openSync(guard, "wx"));
  } catch {
    // Another process is taking over; a guard left by one killed in these few lines is cleared.
    if (Date.now() - (statSync(guard, { throwIfNoEntry: false })?.mtimeMs ?? Date.now()) > 5000) unlinkSync(guard);
    return;
  }
  try {
    if (read(file)?.token === stale.token) unlinkSync(file);
  } finally {
    unlinkSync(guard);
  }
}

/**
 * Takes (or, with the holder's token, joins) the lock on `dir`; throws the one-line refusal when
 * another live process holds it. Returns the release function.
 */
export async function lockPgliteDir(dir: string, opts: { port?: number }): Promise<() => void> {
  const file = `${dir}.lock`;
  mkdirSync(path.dirname(file), { recursive: true }); // .data/ of a fresh clone
  const me: Holder = { pid: process.pid, since: startTimeOf(process.pid) };
  for (let tries = 0; tries < 50; tries++) {
    const current = read(file);
    if (current && current.token && current.token === process.env[PGLITE_LOCK_ENV]) {
      write(file, { ...current, holders: [...current.holders, me] });
      return () => {
        const now = read(file);
        if (now?.token !== current.token) return;
        const i = now.holders.findIndex((h) => h.pid === me.pid);
        if (i >= 0) write(file, { ...now, holders: now.holders.filter((_, j) => j !== i) });
      };
    }
    if (current) {
      const live = current.holders.filter(isAlive);
      if (live.length > 0) throw inUse(dir, current, live);
      removeStale(file, current);
    }
    const lock: LockFile = { pid: process.pid, port: opts.port, token: randomUUID(), holders: [me] };
    // Written whole beside it, then linked into place: link fails if the file exists, so of two
    // processes one wins, and no reader ever sees a half-written lock.
    const tmp = `${file}.${process.pid}.new`;
    writeFileSync(tmp, JSON.stringify(lock));
    try {
      linkSync(tmp, file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      await new Promise((r) => setTimeout(r, 20)); // another process got there first: look again
      continue;
    } finally {
      unlinkSync(tmp);
    }
    process.env[PGLITE_LOCK_ENV] = lock.token;
    const release = () => {
      process.off("exit", release);
      if (read(file)?.token === lock.token) unlinkSync(file);
      if (process.env[PGLITE_LOCK_ENV] === lock.token) delete process.env[PGLITE_LOCK_ENV];
    };
    process.on("exit", release);
    return release;
  }
  throw new Error(`The embedded database ${dir} could not be locked: ${file} keeps changing.`);
}
