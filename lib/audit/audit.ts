import { and, desc, eq, gte, lt, type SQL } from "drizzle-orm";
import type { Db, Tx } from "../db";
import { auditEvents, type AuditOutcome } from "../db/schema";
import type { AuditAction } from "./actions";

/**
 * The audit trail: who did what, when, from where, to what, and how it ended (ADR 27). Append-only:
 * this module only inserts, and the database refuses an UPDATE, DELETE or TRUNCATE of the table.
 */

export type AuditActor =
  | { kind: "staff"; id: string; label: string }
  | { kind: "api_key"; id: string; label: string }
  | { kind: "anonymous"; label?: string }
  | { kind: "system"; label: string };

export interface AuditEntry {
  actor: AuditActor;
  action: AuditAction;
  target?: { kind: string; id: string };
  outcome: AuditOutcome;
  /** Why it failed or was refused ("wrong_password"), or what changed ({ role: "finance" }). */
  detail?: Record<string, string>;
  clientAddress?: string;
  at?: Date;
}

/** The actor of a merchant API call: the key's name as it is now. */
export const apiKeyActor = (caller: { id: string; name: string }): AuditActor => ({
  kind: "api_key",
  id: caller.id,
  label: caller.name,
});

/** Writes one row. Given a transaction, the row commits or rolls back with what it records. */
export async function recordAudit(db: Db | Tx, entry: AuditEntry): Promise<void> {
  await db.insert(auditEvents).values({
    occurredAt: entry.at ?? new Date(),
    actorKind: entry.actor.kind,
    actorId: "id" in entry.actor ? entry.actor.id : null,
    actorLabel: entry.actor.label ?? null,
    action: entry.action,
    targetKind: entry.target?.kind ?? null,
    targetId: entry.target?.id ?? null,
    outcome: entry.outcome,
    detail: entry.detail ?? null,
    clientAddress: entry.clientAddress ?? null,
  });
}

export interface AuditFilter {
  actorId?: string;
  action?: string;
  targetId?: string;
  /** From this instant, inclusive, to `before`, exclusive. */
  since?: Date;
  before?: Date;
  limit?: number;
}

export type AuditRow = typeof auditEvents.$inferSelect;

/** The newest rows first, filtered. */
export async function listAudit(db: Db, filter: AuditFilter = {}): Promise<AuditRow[]> {
  const where: SQL[] = [];
  if (filter.actorId) where.push(eq(auditEvents.actorId, filter.actorId));
  if (filter.action) where.push(eq(auditEvents.action, filter.action));
  if (filter.targetId) where.push(eq(auditEvents.targetId, filter.targetId));
  if (filter.since) where.push(gte(auditEvents.occurredAt, filter.since));
  if (filter.before) where.push(lt(auditEvents.occurredAt, filter.before));
  return db
    .select()
    .from(auditEvents)
    .where(where.length ? and(...where) : undefined)
    .orderBy(desc(auditEvents.occurredAt), desc(auditEvents.id))
    .limit(Math.min(filter.limit ?? 200, 5000));
}
