import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { startPgliteBackend } from "../db/pglite-backend";
import { lockPgliteDir } from "../db/pglite-lock";
import {
  BackupRefused,
  checkMigrationLevel,
  decodeBackup,
  encodeBackup,
  knownMigrations,
  type BackupHeader,
} from "./format";
import { askRunningApp, backupSocketPath } from "./socket";

/*
 * `npm run backup` and `npm run restore` for the embedded database (ADR 37). Every refusal is a
 * BackupRefused with one line for the operator.
 */

export interface BackupTaken {
  header: BackupHeader;
  bytes: number;
  /** "app": the running app took it; "directory": no app ran, the directory was opened here. */
  from: "app" | "directory";
}

/** Writes a backup of the embedded database at `dir` to `file`, whether or not the app is running. */
export async function backupEmbedded(opts: { dir: string; file: string }): Promise<BackupTaken> {
  const { dir, file } = opts;
  if (dir === "memory://") throw new BackupRefused("PGLITE_DIR is memory://: there is nothing on disk to back up");
  let bytes = await askRunningApp(dir);
  let from: BackupTaken["from"] = "app";
  if (!bytes) {
    from = "directory";
    if (!existsSync(path.join(dir, "PG_VERSION"))) throw new BackupRefused(`there is no embedded database in ${dir}`);
    let unlock: () => void;
    try {
      unlock = await lockPgliteDir(dir, {});
    } catch (err) {
      // Held by a process that does not answer at the socket: an app still starting, or one
      // older than backups.
      throw new BackupRefused(
        `${(err as Error).message.replace(/ Stop it first.*$/, "")} and it does not answer backups at ${backupSocketPath(dir)}; if it is starting, try again in a moment`,
      );
    }
    try {
      // Not openDb: a backup takes the database as it is, without migrating it.
      const backend = await startPgliteBackend(dir);
      try {
        bytes = encodeBackup(await backend.dump(), knownMigrations());
      } finally {
        await backend.close();
      }
    } finally {
      unlock();
    }
  }
  // What is written is first read back as a restore would read it.
  const { header } = decodeBackup(bytes, "the backup just taken");
  writeWhole(file, bytes);
  return { header, bytes: bytes.length, from };
}

/** Writes `file` in one step: a reader (or a crash) sees the old file or the whole new one, never half. */
function writeWhole(file: string, bytes: Uint8Array) {
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const tmp = `${file}.${process.pid}.partial`;
  const fd = openSync(tmp, "w", 0o600);
  try {
    for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
  const dirFd = openSync(path.dirname(path.resolve(file)), "r");
  try {
    fsyncSync(dirFd);
  } finally {
    closeSync(dirFd);
  }
}

export interface Restored {
  header: BackupHeader;
  /** Where the database that was there before now is, if there was one (with --force). */
  keptAside?: string;
}

/**
 * Restores `file` into `dir`. Refused, with `dir` untouched: a file cut short, damaged or from
 * another version; a directory in use; a directory holding a database, unless `force`, which
 * keeps that database aside beside it. The file is opened in a new directory beside `dir` first,
 * and renamed into place only once it opened.
 */
export async function restoreEmbedded(opts: { dir: string; file: string; force?: boolean }): Promise<Restored> {
  const { dir, file } = opts;
  if (dir === "memory://") throw new BackupRefused("PGLITE_DIR is memory://: there is no directory to restore into");
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (err) {
    throw new BackupRefused(`${file} cannot be read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  const { header, payload } = decodeBackup(bytes, file);
  checkMigrationLevel(header, knownMigrations(), file);

  let unlock: () => void;
  try {
    unlock = await lockPgliteDir(dir, {});
  } catch (err) {
    throw new BackupRefused(`not restored: ${(err as Error).message.replace(/ Stop it first.*$/, " Stop it first.")}`);
  }
  const tmp = `${dir}.restoring-${process.pid}`;
  try {
    const occupied = existsSync(dir) && readdirSync(dir).length > 0;
    if (occupied && !opts.force)
      throw new BackupRefused(
        `not restored: ${dir} already holds a database; add --force to restore over it (the one there is kept beside it)`,
      );
    rmSync(tmp, { recursive: true, force: true });
    await openRestored(tmp, header, payload, file);
    let keptAside: string | undefined;
    if (occupied) {
      keptAside = `${dir}.before-restore-${new Date().toISOString().replace(/[:.]/g, "-")}`;
      renameSync(dir, keptAside);
    } else {
      rmSync(dir, { recursive: true, force: true }); // an empty directory
    }
    renameSync(tmp, dir);
    return { header, keptAside };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
    unlock();
  }
}

/** Unpacks the payload into `tmp` and opens it: what does not open is refused, and nothing moved. */
async function openRestored(tmp: string, header: BackupHeader, payload: Uint8Array, name: string) {
  const ours = installedPgliteVersion();
  let db: PGlite | undefined;
  try {
    db = new PGlite(tmp, { loadDataDir: new Blob([new Uint8Array(payload)], { type: "application/x-gzip" }) });
    await db.waitReady;
    if (header.migrations.count === 0) await db.query("select 1");
    else {
      const [row] = (await db.query<{ n: number }>("select count(*)::int as n from drizzle.__drizzle_migrations")).rows;
      if (row?.n !== header.migrations.count)
        throw new Error(`it has ${row?.n} migrations where its header says ${header.migrations.count}`);
    }
  } catch (err) {
    const cause = String((err as Error).message ?? err).split("\n")[0];
    if (header.pglite !== ours)
      throw new BackupRefused(
        `${name} holds a Postgres ${header.postgresMajor} database from PGlite ${header.pglite}, which this app's PGlite ${ours} cannot open (${cause}); restore it with the version that made it`,
      );
    throw new BackupRefused(`${name} is damaged: the database in it does not open (${cause})`);
  } finally {
    await db?.close().catch(() => {});
  }
}

function installedPgliteVersion(): string {
  // The package's entry is dist/index.cjs: its package.json is two folders up.
  const entry = createRequire(import.meta.url).resolve("@electric-sql/pglite");
  const pkg = JSON.parse(readFileSync(path.join(path.dirname(entry), "..", "package.json"), "utf8")) as {
    version: string;
  };
  return pkg.version;
}
