import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHECKOUT_STATUSES, STATUS_GROUPS } from "../checkout/types";
import { RETRY_DELAYS_MS } from "../checkout/notifications";
import { openDb, type DbHandle } from "../db/client";
import * as t from "../db/schema";
import { poolOf } from "../db/testing";
import { backupEmbedded, restoreEmbedded } from "./embedded";
import { BackupRefused, decodeBackup, encodeBackup, knownMigrations } from "./format";
import { serveBackups } from "./socket";

const root = fileURLToPath(new URL("../..", import.meta.url));
const tmp = mkdtempSync(path.join(os.tmpdir(), "backup-test-"));
const at = (name: string) => path.join(tmp, name);
const HOUR = 3600_000;
const base = new Date("2026-06-01T12:00:00Z").getTime();
const when = (hours: number) => new Date(base + hours * HOUR);
// Each test opens PGlite on disk once or twice: seconds each, many more on a machine under load.
const SLOW = 60_000;

/** Every row of every table of the app's schema and of the migrations' journal, in a stable order. */
async function everyRow(handle: DbHandle): Promise<Record<string, unknown[]>> {
  const pool = poolOf(handle);
  const { rows: tables } = await pool.query<{ name: string }>(
    `select table_schema || '.' || table_name as name from information_schema.tables
     where table_schema in ('public', 'drizzle') and table_type = 'BASE TABLE' order by 1`,
  );
  const all: Record<string, unknown[]> = {};
  for (const { name } of tables) {
    const { rows } = await pool.query<{ r: unknown }>(
      `select to_jsonb(x) as r from ${name} x order by to_jsonb(x)::text`,
    );
    all[name] = rows.map((row) => row.r);
  }
  return all;
}

/** A checkout in every status, payments in every status group, refunds and notifications in every state. */
async function seed(handle: DbHandle) {
  const { db } = handle;
  const checkout = (id: string, status: (typeof CHECKOUT_STATUSES)[number]) => ({
    id,
    amount: "30.00",
    currency: "EUR",
    description: `Order ${id}`,
    reference: id,
    returnUrl: "https://shop.test/thanks",
    notifyUrl: "https://shop.test/notify",
    metadata: { order: id },
    lineItems: [{ name: "Book", quantity: 2, unitAmount: "15.00" }],
    creditorName: "Demo Shop UAB",
    creditorIban: "LT601010012345678901",
    status,
    createdAt: when(0),
    updatedAt: when(1),
    expiresAt: when(24),
  });
  await db.insert(t.checkouts).values(CHECKOUT_STATUSES.map((s) => checkout(`co_${s}`, s)));
  await db.insert(t.paymentAttempts).values([
    ...STATUS_GROUPS.map((group) => ({
      id: `pa_${group}`,
      checkoutId: { started: "co_open", pending: "co_processing", completed: "co_paid", failed: "co_failed" }[group],
      attemptKey: `key_${group}`,
      method: "bank" as const,
      bankId: "SWEDBANK_LT_SAND",
      providerPaymentId: `pp_${group}`,
      statusGroup: group,
      providerStatus: group === "completed" ? "ACSC" : group === "failed" ? "RJCT" : "ACSP",
      completedAt: group === "completed" ? when(1) : null,
      errorCodes: group === "failed" ? [51] : null,
    })),
    { id: "pa_unanswered", checkoutId: "co_open", attemptKey: "key_unanswered", method: "card", abandonedAt: when(2) },
  ]);
  await db.insert(t.statusEvents).values([
    {
      checkoutId: "co_paid",
      attemptId: "pa_completed",
      fromStatus: "open",
      toStatus: "processing",
      source: "initiation",
    },
    { checkoutId: "co_paid", attemptId: "pa_completed", fromStatus: "processing", toStatus: "paid", source: "webhook" },
    { checkoutId: "co_cancelled", fromStatus: "open", toStatus: "cancelled", source: "merchant" },
  ]);
  await db.insert(t.refunds).values(
    [null, ...STATUS_GROUPS].map((group, i) => ({
      id: `rf_${group ?? "unanswered"}`,
      checkoutId: "co_paid",
      attemptId: "pa_completed",
      providerRefundId: group ? 100 + i : null,
      amount: "5.00",
      currency: "EUR",
      statusGroup: group,
      failureReason: group === "failed" ? "account closed" : null,
      createdBy: "merchant",
      idempotencyKey: `refund-${i}`,
      requestHash: `hash-${i}`,
    })),
  );
  const notification = (id: string, over: Partial<typeof t.notifications.$inferInsert>) => ({
    id,
    checkoutId: "co_paid",
    event: "checkout.paid",
    url: "https://shop.test/notify",
    payload: JSON.stringify({ id, event: "checkout.paid" }),
    ...over,
  });
  await db
    .insert(t.notifications)
    .values([
      notification("nt_pending", {}),
      notification("nt_retrying", { attempts: 2, lastStatus: 500, lastError: "HTTP 500", nextAttemptAt: when(3) }),
      notification("nt_leased", { attempts: 1, lockedUntil: when(1) }),
      notification("nt_delivered", { attempts: 1, lastStatus: 200, deliveredAt: when(1) }),
      notification("nt_given_up", { attempts: RETRY_DELAYS_MS.length + 1, lastError: "HTTP 503 (gave up)" }),
      notification("nt_refund", { event: "refund.completed", attempts: 1, deliveredAt: when(2) }),
    ]);
  await db.insert(t.webhookEvents).values({
    type: "PAYMENT",
    providerPaymentId: "pp_completed",
    signatureValid: true,
    outcome: "applied",
    rawBody: '{"id":"pp_completed","statusGroup":"completed"}',
  });
  await db.insert(t.idempotencyKeys).values({ key: "create-1", requestHash: "h", checkoutId: "co_open" });
}

/** The files of a directory with their size and modification time: what "untouched" means. */
function stamps(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => {
      const file = path.join(e.parentPath, e.name);
      const s = statSync(file);
      return `${file} ${s.size} ${s.mtimeMs}`;
    })
    .sort();
}

/** The refusal of `promise`: a BackupRefused of one line. */
async function refusal(promise: Promise<unknown>): Promise<string> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(BackupRefused);
  const message = (err as Error).message;
  expect(message).not.toContain("\n");
  return message;
}

let source: DbHandle;
const children: ChildProcess[] = [];

beforeAll(async () => {
  source = await openDb({ pgliteDir: at("source"), serve: serveBackups });
  await seed(source);
});

afterAll(async () => {
  for (const c of children) c.kill("SIGKILL");
  await source?.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe("backups of the embedded database", { timeout: SLOW }, () => {
  it("takes a backup from the running app, between transactions, and restores every row into a fresh directory the app opens", async () => {
    // A transaction under way when the backup is asked for: the copy holds it whole or not at all,
    // so the restored database must equal the source, whichever it is.
    const client = await poolOf(source).connect();
    await client.query("begin");
    await client.query(
      `insert into checkouts (id, amount, currency, description, reference, return_url, creditor_name, creditor_iban, expires_at)
       values ('co_in_flight', '1.00', 'EUR', 'Late order', 'late', 'https://shop.test', 'Demo Shop UAB', 'LT601010012345678901', now())`,
    );
    const taken = backupEmbedded({ dir: at("source"), file: at("live.backup") });
    await new Promise((r) => setTimeout(r, 300));
    await client.query(
      `insert into notifications (id, checkout_id, event, url, payload) values ('nt_in_flight', 'co_in_flight', 'checkout.paid', 'https://shop.test', '{}')`,
    );
    await client.query("commit");
    client.release();
    const backup = await taken;
    expect(backup.from).toBe("app");
    expect(backup.header.migrations.count).toBe(knownMigrations().length);
    expect(backup.header.pglite).toMatch(/^\d+\.\d+\.\d+/); // read from the package, never "unknown"

    const restored = await restoreEmbedded({ dir: at("restored"), file: at("live.backup") });
    expect(restored.keptAside).toBeUndefined();
    const app = await openDb({ pgliteDir: at("restored") });
    try {
      const rows = await everyRow(app);
      expect(rows).toEqual(await everyRow(source));
      expect(rows["public.checkouts"]).toHaveLength(CHECKOUT_STATUSES.length + 1);
      expect(rows["public.refunds"]).toHaveLength(STATUS_GROUPS.length + 1);
      expect(rows["public.notifications"]).toHaveLength(7);
      expect(rows["drizzle.__drizzle_migrations"]).toHaveLength(knownMigrations().length);
    } finally {
      await app.close();
    }
  });

  it("backs up a directory no app has open, and refuses bad files with one line, the target untouched", async () => {
    const backup = await backupEmbedded({ dir: at("restored"), file: at("closed.backup") });
    expect(backup.from).toBe("directory");
    const good = readFileSync(at("closed.backup"));
    const { header, payload } = decodeBackup(good, "closed.backup");
    const before = stamps(at("restored"));
    const tryRestore = async (name: string, bytes: Uint8Array) => {
      writeFileSync(at(name), bytes);
      // --force: had the file been taken, the database there would have been replaced.
      return refusal(restoreEmbedded({ dir: at("restored"), file: at(name), force: true }));
    };

    expect(await tryRestore("cut.backup", good.subarray(0, good.length - 1000))).toMatch(
      new RegExp(`cut.backup is cut short: it holds ${payload.length - 1000} of the ${payload.length} bytes`),
    );
    const flipped = Buffer.from(good);
    flipped[flipped.length - 5000]! ^= 0xff;
    expect(await tryRestore("flipped.backup", flipped)).toMatch(
      /flipped.backup is damaged: its checksum does not match/,
    );
    const later = good.toString("latin1").replace('{"format":1,', '{"format":2,');
    expect(await tryRestore("format2.backup", Buffer.from(later, "latin1"))).toMatch(
      /format2.backup is a backup in format 2, from another version of the app; this one reads format 1/,
    );
    const journal = knownMigrations();
    const newer = encodeBackup(
      { ...header, payload, migrations: { count: journal.length + 1, last: journal.at(-1)!.when + 1 } },
      journal,
    );
    expect(await tryRestore("newer.backup", newer)).toMatch(/newer.backup is from a newer version of the app/);
    expect(await tryRestore("text.backup", Buffer.from("hello\n"))).toMatch(/is not a backup of the embedded database/);

    expect(await refusal(restoreEmbedded({ dir: at("restored"), file: at("closed.backup") }))).toMatch(
      /restored already holds a database; add --force/,
    );
    expect(stamps(at("restored"))).toEqual(before);
    expect(readdirSync(tmp).filter((f) => f.includes(".restoring-"))).toEqual([]);
  });

  it("refuses to restore into a directory another live process holds, naming it", async () => {
    const dir = at("held");
    mkdirSync(dir);
    const lockUrl = new URL("../db/pglite-lock.ts", import.meta.url).href;
    const child = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        "--input-type=module",
        "-e",
        `const { lockPgliteDir } = await import(${JSON.stringify(lockUrl)});
         await lockPgliteDir(${JSON.stringify(dir)}, { port: 4399 });
         console.log("locked");
         setInterval(() => {}, 60_000);`,
      ],
      { cwd: root, env: { ...process.env, PGLITE_LOCK_TOKEN: "" }, stdio: ["ignore", "pipe", "inherit"] },
    );
    children.push(child);
    await new Promise<void>((resolve) => child.stdout!.once("data", () => resolve()));
    const message = await refusal(restoreEmbedded({ dir, file: at("closed.backup"), force: true }));
    expect(message).toContain(`in use by another process (pid ${child.pid}, serving http://localhost:4399)`);
    expect(readdirSync(dir)).toEqual([]);
  });
});
