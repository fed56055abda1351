import { createHash } from "node:crypto";
import { getTableName } from "drizzle-orm";
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
  /** The checkout's other attempts step aside (at this time): the updated one is its current attempt again. */
  othersAside?: Date;
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
 *
 * The text is written here rather than by drizzle's builder (which walks its whole tree on every
 * call) and runs as a named statement, one per shape (which columns are written), so the
 * database parses and plans each shape once per connection: a write path's largest statement.
 */
export async function writeIfUnchanged(db: Db | Tx, w: GuardedWrite): Promise<boolean> {
  const params: unknown[] = [];
  // A value as its column stores it (drizzle's own mapping), cast to the column's type.
  const param = (column: PgColumn, value: unknown) =>
    `$${params.push(value === null ? null : column.mapToDriverValue(value))}::${column.getSQLType()}`;
  // Every write is a change of the checkout (its status, or a payment of it): the merchant lists
  // what changed on a day by updated_at (GET /api/checkouts?updatedFrom=).
  const moved = w.moveTo ? `, status = ${param(checkouts.status, w.moveTo)}` : "";
  const parts = [
    `guard as (update checkouts set version = version + 1, updated_at = ${param(checkouts.updatedAt, new Date())}${moved}
      where id = ${param(checkouts.id, w.checkout.id)} and version = ${param(checkouts.version, w.checkout.version)}
      returning id)`,
  ];
  if (w.attemptUpdate) {
    const set = given(paymentAttempts, w.attemptUpdate.set).map(([c, v]) => `"${c.name}" = ${param(c, v)}`);
    parts.push(
      `attempt_updated as (update payment_attempts set ${set.join(", ")}
        where id = ${param(paymentAttempts.id, w.attemptUpdate.id)} and exists (select 1 from guard))`,
    );
  }
  if (w.attemptUpdate && w.othersAside) {
    parts.push(
      `others_aside as (update payment_attempts set abandoned_at = ${param(paymentAttempts.abandonedAt, w.othersAside)}
        where checkout_id = ${param(paymentAttempts.checkoutId, w.checkout.id)} and abandoned_at is null
          and id <> ${param(paymentAttempts.id, w.attemptUpdate.id)} and exists (select 1 from guard))`,
    );
  }
  const insert = (name: string, table: PgTable, values: object | undefined) => {
    if (!values) return;
    const columns = given(table, values);
    parts.push(
      `${name} as (insert into "${getTableName(table)}" (${columns.map(([c]) => `"${c.name}"`).join(", ")})
        select ${columns.map(([c, v]) => param(c, v)).join(", ")} from guard)`,
    );
  };
  insert("attempt_inserted", paymentAttempts, w.attemptInsert);
  insert("event_inserted", statusEvents, w.event);
  insert("notification_inserted", notifications, w.notification);
  insert("webhook_event_inserted", webhookEvents, w.webhookEvent);
  const text = `with ${parts.join(", ")} select count(*)::int as written from guard`;
  const result = await db._.session.prepareQuery({ sql: text, params }, undefined, nameOf(text), false).execute();
  return rowsOf<{ written: number }>(result)[0]?.written === 1;
}

/** The columns given a value (undefined: left out, as drizzle does), each with its value. */
function given(table: PgTable, values: object): [PgColumn, unknown][] {
  return Object.entries(values).flatMap(([key, value]) => {
    if (value === undefined) return [];
    const column = (table as unknown as Record<string, PgColumn>)[key];
    if (!column) throw new Error(`no column ${key}`);
    return [[column, value]];
  });
}

/**
 * The statement's name, from its text alone: Next bundles this module into more than one chunk
 * (pages and route handlers), each with its own module state, on one connection pool, and a name
 * must never stand for two texts on a connection.
 */
const names = new Map<string, string>();
function nameOf(text: string): string {
  let name = names.get(text);
  if (!name) {
    name = `guarded_write_${createHash("sha256").update(text).digest("hex").slice(0, 24)}`;
    names.set(text, name);
  }
  return name;
}
