import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";

/*
 * The backup file of the embedded database (ADR 37): a first line naming what it is, a second line
 * of JSON (the header), then the payload: PGlite's own dump of its data directory, gzipped. The
 * header says enough for a restore to refuse, before it touches anything, a file cut short or
 * damaged (length and checksum of the payload), or one this version of the app cannot take (the
 * file's format, a database migrated further than this code knows).
 */

export const BACKUP_FORMAT = 1;
const MAGIC = "bank-checkout embedded database backup\n";
/** Far more than any header; a file with no line end before it is not one of ours. */
const MAX_HEADER = 64 * 1024;

/** What the database's own thread reports with its dump (lib/db/pglite-worker.mjs). */
export interface DumpMeta {
  /** The PGlite package that wrote the data directory. */
  pglite: string;
  /** Postgres's server_version, e.g. "18.6". */
  postgres: string;
  postgresMajor: number;
  /** Migrations applied (drizzle's journal): how many, and the `when` of the last one. */
  migrations: { count: number; last: number | null };
}

export interface Dump extends DumpMeta {
  /** The data directory as a gzipped tarball. */
  payload: Uint8Array;
}

const headerSchema = z.object({
  format: z.number().int(),
  createdAt: z.string(),
  pglite: z.string(),
  postgres: z.string(),
  postgresMajor: z.number().int(),
  migrations: z.object({
    count: z.number().int().min(0),
    last: z.number().int().nullable(),
    lastTag: z.string().nullable().optional(),
  }),
  payloadBytes: z.number().int().min(0),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
export type BackupHeader = z.infer<typeof headerSchema>;

/** A backup file refused, or a database it cannot be taken from or restored to: one line, for the operator. */
export class BackupRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BackupRefused";
  }
}

interface JournalEntry {
  when: number;
  tag: string;
}

/** The migrations this code knows, oldest first (drizzle's journal). */
export function knownMigrations(root = process.cwd()): JournalEntry[] {
  const file = path.join(root, "lib/db/migrations/meta/_journal.json");
  const journal = z
    .object({ entries: z.array(z.object({ when: z.number(), tag: z.string() })) })
    .parse(JSON.parse(readFileSync(file, "utf8")));
  return journal.entries;
}

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

export function encodeBackup(dump: Dump, journal: JournalEntry[], now = new Date()): Buffer {
  const header: BackupHeader = {
    format: BACKUP_FORMAT,
    createdAt: now.toISOString(),
    pglite: dump.pglite,
    postgres: dump.postgres,
    postgresMajor: dump.postgresMajor,
    migrations: {
      ...dump.migrations,
      lastTag: journal.find((e) => e.when === dump.migrations.last)?.tag ?? null,
    },
    payloadBytes: dump.payload.length,
    sha256: sha256(dump.payload),
  };
  return Buffer.concat([Buffer.from(MAGIC), Buffer.from(`${JSON.stringify(header)}\n`), dump.payload]);
}

/** The header and payload of a backup file, or the one-line refusal naming what is wrong with it. */
export function decodeBackup(bytes: Uint8Array, name: string): { header: BackupHeader; payload: Uint8Array } {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  if (!buf.subarray(0, MAGIC.length).equals(Buffer.from(MAGIC))) {
    if (Buffer.from(MAGIC).subarray(0, buf.length).equals(buf))
      throw new BackupRefused(`${name} is cut short: it ends within its first line`);
    throw new BackupRefused(`${name} is not a backup of the embedded database (one made by npm run backup)`);
  }
  const end = buf.indexOf(0x0a, MAGIC.length);
  if (end < 0 || end - MAGIC.length > MAX_HEADER) {
    if (end < 0 && buf.length - MAGIC.length <= MAX_HEADER)
      throw new BackupRefused(`${name} is cut short: it ends within its header`);
    throw new BackupRefused(`${name} is damaged: its header has no end`);
  }
  let header: BackupHeader;
  try {
    const raw = JSON.parse(buf.subarray(MAGIC.length, end).toString("utf8")) as { format?: unknown };
    // The format first: a later format may have a header this one cannot parse.
    if (typeof raw.format === "number" && raw.format !== BACKUP_FORMAT)
      throw new BackupRefused(
        `${name} is a backup in format ${raw.format}, from another version of the app; this one reads format ${BACKUP_FORMAT}`,
      );
    header = headerSchema.parse(raw);
  } catch (err) {
    if (err instanceof BackupRefused) throw err;
    throw new BackupRefused(`${name} is damaged: its header cannot be read`);
  }
  const payload = buf.subarray(end + 1);
  if (payload.length < header.payloadBytes)
    throw new BackupRefused(
      `${name} is cut short: it holds ${payload.length} of the ${header.payloadBytes} bytes of its database`,
    );
  if (payload.length > header.payloadBytes)
    throw new BackupRefused(
      `${name} is damaged: ${payload.length - header.payloadBytes} bytes more than its header says`,
    );
  if (sha256(payload) !== header.sha256)
    throw new BackupRefused(`${name} is damaged: its checksum does not match its contents`);
  return { header, payload };
}

/**
 * Refuses a database migrated further than this code knows: the app would run on a schema it was
 * not written for. An older one is fine: the app migrates it when it starts, as after an upgrade.
 */
export function checkMigrationLevel(header: BackupHeader, journal: JournalEntry[], name: string): void {
  const known = journal.at(-1);
  const last = header.migrations.last;
  if (header.migrations.count > journal.length || (last !== null && (known === undefined || last > known.when)))
    throw new BackupRefused(
      `${name} is from a newer version of the app: its database has ${header.migrations.count} migrations (last ${header.migrations.lastTag ?? last}), this version knows ${journal.length} (last ${known?.tag ?? "none"}); restore it with the version that made it`,
    );
}
