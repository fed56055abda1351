import { sql, type SQL } from "drizzle-orm";
import type { Db } from "../db";
import { rowsOf } from "../db/raw";
import { logger } from "../log/logger";
import { everyInterval } from "../rounds";

/**
 * Retention (ADR 33): what grows with traffic and is not the books is pruned here, and only here,
 * in small batches. Checkouts, payment attempts, refunds and the status history are the books, and
 * the audit trail is append-only: no statement below names them.
 *
 * Each batch is one statement that picks at most `limit` rows by primary key with SKIP LOCKED and
 * changes those: it locks only the rows it changes, for as long as the statement runs, so requests
 * never queue behind a prune, and two instances pruning at once share the rows instead of waiting
 * or counting one twice. Each batch commits on its own, so a prune killed mid-way has lost nothing
 * and the next round goes on where it stopped.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

/** What one round pruned, in rows. */
export interface Pruned {
  /** Rate-limit windows that ended (their keys hold client addresses: gone once they count no more). */
  rateLimitWindows: number;
  /** Back-office sessions that ran out. */
  staffSessions: number;
  /** Passkey challenges never answered in their two minutes. */
  passkeyChallenges: number;
  /** Set-password links used or expired more than the retention ago. */
  staffInvitations: number;
  /** Delivered notifications whose body was emptied; the row stays as the delivery record. */
  notificationPayloads: number;
  /** Provider webhooks whose raw body was emptied; the row stays as the record of what came. */
  webhookBodies: number;
}

interface Cutoffs {
  /** What ended before this is of no more use to anyone. */
  now: Date;
  /** What is kept for a look back is kept until this: `RETENTION_DAYS` before now. */
  retained: Date;
}

const BATCHES: Record<keyof Pruned, (c: Cutoffs, limit: number) => SQL> = {
  rateLimitWindows: ({ now }, limit) => sql`
    delete from rate_limits where key in (
      select key from rate_limits where expires_at < ${now}
      order by expires_at limit ${limit} for update skip locked)
    returning 1`,
  staffSessions: ({ now }, limit) => sql`
    delete from staff_sessions where token_hash in (
      select token_hash from staff_sessions where expires_at < ${now}
      order by expires_at limit ${limit} for update skip locked)
    returning 1`,
  passkeyChallenges: ({ now }, limit) => sql`
    delete from staff_passkey_challenges where challenge in (
      select challenge from staff_passkey_challenges where expires_at < ${now}
      order by expires_at limit ${limit} for update skip locked)
    returning 1`,
  // A link ends when it is used or when it expires, whichever comes first (least() skips a null).
  staffInvitations: ({ retained }, limit) => sql`
    delete from staff_invitations where token_hash in (
      select token_hash from staff_invitations where least(used_at, expires_at) < ${retained}
      limit ${limit} for update skip locked)
    returning 1`,
  // Given-up notifications keep their body: staff may still send them again.
  notificationPayloads: ({ retained }, limit) => sql`
    update notifications set payload = '' where id in (
      select id from notifications where delivered_at < ${retained} and payload <> ''
      limit ${limit} for update skip locked)
    returning 1`,
  webhookBodies: ({ retained }, limit) => sql`
    update webhook_events set raw_body = '' where id in (
      select id from webhook_events where received_at < ${retained} and raw_body <> ''
      limit ${limit} for update skip locked)
    returning 1`,
};

export interface PruneOptions {
  retentionDays: number;
  now?: Date;
  /** Rows one statement changes at most. */
  batchSize?: number;
  /** Statements of each kind in one round at most: a round far behind is still a short one. */
  maxBatches?: number;
  /** No statement is started after this long into the round. */
  maxMs?: number;
  /** Asked between statements: shutdown stops a round at the next one. */
  stopping?: () => boolean;
}

export const BATCH_SIZE = 500;

/** One round of pruning, each kind until nothing of it is left or its share of the round is spent. */
export async function prune(db: Db, opts: PruneOptions): Promise<Pruned> {
  const now = opts.now ?? new Date();
  const cutoffs = { now, retained: new Date(now.getTime() - opts.retentionDays * DAY_MS) };
  const batchSize = opts.batchSize ?? BATCH_SIZE;
  const maxBatches = opts.maxBatches ?? 20;
  const deadline = Date.now() + (opts.maxMs ?? 5_000);
  const pruned = {} as Pruned;
  for (const [kind, batch] of Object.entries(BATCHES) as [keyof Pruned, (typeof BATCHES)[keyof Pruned]][]) {
    pruned[kind] = 0;
    for (let i = 0; i < maxBatches && Date.now() < deadline && !opts.stopping?.(); i++) {
      const n = rowsOf(await db.execute(batch(cutoffs, batchSize))).length;
      pruned[kind] += n;
      // Fewer than asked: nothing more is due, or another instance holds the rest.
      if (n < batchSize) break;
    }
  }
  return pruned;
}

/**
 * Every five minutes per instance: a round is at most 20 batches of 500 rows of each kind, which
 * stays ahead of ten checkouts a second with room to spare, and catches up on a backlog in steps.
 */
export const PRUNE_EVERY_MS = 5 * 60_000;

/** Prunes every `everyMs` until stopped; a round that pruned something says so in one log line. */
export function startRetention(db: Db, retentionDays: number, everyMs = PRUNE_EVERY_MS): () => Promise<void> {
  let stopping = false;
  const stop = everyInterval(
    async () => {
      const pruned = await prune(db, { retentionDays, stopping: () => stopping });
      if (Object.values(pruned).some((n) => n > 0)) logger.info({ pruned, retentionDays }, "retention: pruned");
    },
    everyMs,
    (err) => console.error("retention: pruning failed", err),
    "retention",
  );
  return () => {
    stopping = true;
    return stop();
  };
}
