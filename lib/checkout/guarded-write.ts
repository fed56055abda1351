import { sql, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Db } from "../db/client";
import { rowsOf } from "../db/raw";
import { checkouts, notifications, paymentAttempts, statusEvents, webhookEvents } from "../db/schema";
import type { Tx } from "./context";
import type { CheckoutStatus } from "./types";

type Insert<T extends PgTable> = T["$inferInsert"];

/** What one status change writes, all of it or nothing (ADR 19). */
export interface GuardedWrite {
  /** The checkout as read: the write applies only while its version is still this one. */
  checkout: { id: string; version: number };
  /** The checkout's own new status, when it moves. */
  moveTo?: CheckoutStatus;
  attemptUpdate?: { id: string; set: Partial<Insert<typeof paymentAttempts>> };
  attemptInsert?: Insert<typeof paymentAttempts>;
  event?: Insert<typeof statusEvents>;
  notification?: Insert<typeof notifications>;
  /** The provider webhook that brought the change, kept for audit with it. */
  webhookEvent?: Insert<typeof webhookEvents>;
}

/**
 * Writes a status change in one statement, only if nothing changed the checkout or its attempts
 * since they were read: the checkout's version is raised where it still has the value read, and
 * every other write of the statement happens only if that row was. Returns false when another
 * write came first; the caller reads again and decides again. One round trip instead of a
 * transaction's five or more, with the same outcome as taking the checkout's lock (ADR 19).
 */
export async function writeIfUnchanged(db: Db | Tx, w: GuardedWrite): Promise<boolean> {
  const now = new Date();
  const moved = w.moveTo ? sql`, status = ${w.moveTo}, updated_at = ${now}` : sql``;
  const parts: SQL[] = [
    sql`guard as (update ${checkouts} set version = version + 1${moved}
      where id = ${w.checkout.id} and version = ${w.checkout.version} returning id)`,
  ];
  if (w.attemptUpdate) {
    const set = sql.join(
      Object.entries(w.attemptUpdate.set).flatMap(([key, value]) =>
        value === undefined
          ? []
          : [sql`${sql.identifier(columnOf(paymentAttempts, key).name)} = ${typed(paymentAttempts, key, value)}`],
      ),
      sql`, `,
    );
    parts.push(
      sql`attempt_updated as (update ${paymentAttempts} set ${set}
        where id = ${w.attemptUpdate.id} and exists (select 1 from guard))`,
    );
  }
  if (w.attemptInsert) parts.push(sql`attempt_inserted as (${insertIfGuarded(paymentAttempts, w.attemptInsert)})`);
  if (w.event) parts.push(sql`event_inserted as (${insertIfGuarded(statusEvents, w.event)})`);
  if (w.notification) parts.push(sql`notification_inserted as (${insertIfGuarded(notifications, w.notification)})`);
  if (w.webhookEvent) parts.push(sql`webhook_event_inserted as (${insertIfGuarded(webhookEvents, w.webhookEvent)})`);
  const result = await db.execute(sql`with ${sql.join(parts, sql`, `)} select count(*)::int as written from guard`);
  return rowsOf<{ written: number }>(result)[0]?.written === 1;
}

function columnOf(table: PgTable, key: string): PgColumn {
  const column = (table as unknown as Record<string, PgColumn>)[key];
  if (!column) throw new Error(`no column ${key}`);
  return column;
}

/** A value as its column stores it (drizzle's own mapping), cast to the column's type. */
function typed(table: PgTable, key: string, value: unknown): SQL {
  const column = columnOf(table, key);
  return sql`${sql.param(value, column)}::${sql.raw(column.getSQLType())}`;
}

function insertIfGuarded<T extends PgTable>(table: T, values: Insert<T>): SQL {
  const given = Object.entries(values as Record<string, unknown>).filter(([, v]) => v !== undefined);
  const names = sql.join(
    given.map(([key]) => sql.identifier(columnOf(table, key).name)),
    sql`, `,
  );
  const row = sql.join(
    given.map(([key, value]) => typed(table, key, value)),
    sql`, `,
  );
  return sql`insert into ${table} (${names}) select ${row} from guard`;
}
