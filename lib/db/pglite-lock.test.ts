import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { openDb } from "./client";
import { rowsOf } from "./raw";
import { PGLITE_LOCK_ENV, lockPgliteDir } from "./pglite-lock";

const root = fileURLToPath(new URL("../..", import.meta.url));
const clientUrl = new URL("./client.ts", import.meta.url).href;

// A separate process that opens the directory (as `npm start` or `next start` would), says "open"
// or "refused <message>", and closes the database on SIGTERM. It listens for SIGTERM before it says
// "open": the other way round, a busy machine could deliver the test's SIGTERM in between, and the
// child died without closing (CI, 2026-11-27).
const childScript = `
const { openDb } = await import(process.env.CLIENT_URL);
try {
  const h = await openDb({ pgliteDir: process.env.DIR, port: 4321 });
  process.on("SIGTERM", () => h.close().then(() => process.exit(0)));
  console.log("open");
  setInterval(() => {}, 60_000);
} catch (err) {
  console.log("refused " + err.message);
  process.exit(3);
}`;

const children: ChildProcess[] = [];

function openInChild(
  dir: string,
  extraEnv: Record<string, string> = {},
): Promise<{ child: ChildProcess; line: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, CLIENT_URL: clientUrl, DIR: dir, ...extraEnv };
  if (!extraEnv[PGLITE_LOCK_ENV]) delete env[PGLITE_LOCK_ENV];
  const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", childScript], {
    cwd: root,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = "";
    let err = "";
    child.stderr!.on("data", (c: Buffer) => (err += c.toString()));
    child.stdout!.on("data", (c: Buffer) => {
      out += c.toString();
      if (out.includes("\n")) resolve({ child, line: out.split("\n")[0]! });
    });
    child.once("exit", (code) => reject(new Error(`child exited (${code}) before answering: ${err.trim()}`)));
  });
}

/** Every file of the database directory with its modification time. */
function fileStamps(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name))
    .map((f) => `${f} ${statSync(f).mtimeMs}`)
    .sort();
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) =>
    child.exitCode !== null || child.signalCode !== null ? resolve() : child.once("exit", () => resolve()),
  );
}

const tmp = mkdtempSync(path.join(os.tmpdir(), "pglite-lock-"));
let n = 0;
let dir: string;

beforeEach(() => {
  dir = path.join(tmp, `data${n++}`);
});

afterEach(async () => {
  for (const c of children.splice(0)) {
    c.kill("SIGKILL");
    await exited(c);
  }
});

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

// Each test starts other processes that open the database: slow on a busy shared machine.
describe("the embedded database directory is locked to one process", { timeout: 60_000 }, () => {
  it("refuses a second process with one line naming the holder's pid and port, and frees the directory when the holder stops", async () => {
    const first = await openInChild(dir);
    expect(first.line).toBe("open");

    const refused = await openDb({ pgliteDir: dir }).then(
      () => null,
      (err: Error) => err.message,
    );
    expect(refused).toBe(
      `The embedded database ${dir} is in use by another process (pid ${first.child.pid}, serving http://localhost:4321). Stop it first, or set PGLITE_DIR / DATABASE_URL.`,
    );

    first.child.kill("SIGTERM");
    await exited(first.child);
    expect(existsSync(`${dir}.lock`)).toBe(false);
    const h = await openDb({ pgliteDir: dir });
    await h.close();
  });

  it("refuses a second process before it touches the database", async () => {
    const first = await openInChild(dir);
    expect(first.line).toBe("open");
    const before = fileStamps(dir);
    await expect(openDb({ pgliteDir: dir })).rejects.toThrow(`pid ${first.child.pid}`);
    expect(fileStamps(dir)).toEqual(before);
  });

  it("takes over a lock whose holder was killed (kill -9)", async () => {
    const first = await openInChild(dir);
    expect(first.line).toBe("open");
    first.child.kill("SIGKILL");
    await exited(first.child);
    expect(existsSync(`${dir}.lock`)).toBe(true);

    const h = await openDb({ pgliteDir: dir });
    await h.close();
  });

  it("takes over a lock whose pid now belongs to another program (pid reused after a restart)", async () => {
    if (!existsSync("/proc/self/stat")) return;
    writeFileSync(
      `${dir}.lock`,
      JSON.stringify({
        pid: process.ppid,
        port: 3000,
        startedAt: "2020-01-01T00:00:00.000Z",
        token: "old",
        holders: [{ pid: process.ppid, since: "1" }],
      }),
    );
    const release = await lockPgliteDir(dir, {});
    expect(JSON.parse(readFileSync(`${dir}.lock`, "utf8")).pid).toBe(process.pid);
    release();
    expect(existsSync(`${dir}.lock`)).toBe(false);
  });

  it("lets one of two processes take over a stale lock, never both", async () => {
    writeFileSync(
      `${dir}.lock`,
      JSON.stringify({
        pid: 999_999_9,
        startedAt: "2020-01-01T00:00:00.000Z",
        token: "old",
        holders: [{ pid: 999_999_9 }],
      }),
    );
    const lines = (await Promise.all([openInChild(dir), openInChild(dir)])).map((r) => r.line.split(" ")[0]).sort();
    expect(lines).toEqual(["open", "refused"]);
  });

  it("lets the children of the process holding the lock open the directory (npm start, then next start)", async () => {
    const release = await lockPgliteDir(dir, { port: 4000 });
    try {
      const token = process.env[PGLITE_LOCK_ENV]!;
      expect(token).toBeTruthy();
      const child = await openInChild(dir, { [PGLITE_LOCK_ENV]: token });
      expect(child.line).toBe("open");

      // A stranger is refused and told about the parent, which owns the lock.
      const stranger = await openInChild(dir);
      expect(stranger.line).toMatch(new RegExp(`^refused .*\\(pid ${process.pid}, serving http://localhost:4000\\)`));
    } finally {
      release();
      delete process.env[PGLITE_LOCK_ENV];
    }
  });

  it("still counts a child that outlives the process that took the lock", async () => {
    writeFileSync(
      `${dir}.lock`,
      JSON.stringify({
        pid: 999_999_9,
        port: 4100,
        startedAt: "2020-01-01T00:00:00.000Z",
        token: "tok",
        holders: [{ pid: 999_999_9 }],
      }),
    );
    const orphan = await openInChild(dir, { [PGLITE_LOCK_ENV]: "tok" });
    expect(orphan.line).toBe("open");
    await expect(lockPgliteDir(dir, {})).rejects.toThrow(`(pid ${orphan.child.pid}, serving http://localhost:4100)`);
  });

  it("lets the same process reopen the directory after closing it, keeping the data", async () => {
    const a = await openDb({ pgliteDir: dir });
    await a.db.execute("create table kept (v int)");
    await a.db.execute("insert into kept values (1)");
    await a.close();
    expect(existsSync(`${dir}.lock`)).toBe(false);

    const b = await openDb({ pgliteDir: dir });
    expect(rowsOf(await b.db.execute("select v from kept"))).toEqual([{ v: 1 }]);
    await b.close();
  });

  it("opens a directory whose parent does not exist yet (the first npm start of a fresh clone)", async () => {
    const nested = path.join(dir, "not-yet", "pglite");
    const a = await openDb({ pgliteDir: nested });
    expect(existsSync(`${nested}.lock`)).toBe(true);
    await a.close();
  });

  it("needs no lock for an in-memory database", async () => {
    const [a, b] = await Promise.all([openDb({ pgliteDir: "memory://" }), openDb({ pgliteDir: "memory://" })]);
    await Promise.all([a.close(), b.close()]);
  });
});
