import { and, eq, inArray, isNull, lte, sql } from "drizzle-orm";
import { rowsOf } from "../db/raw";
import { everyInterval } from "../rounds";
import { checkouts, paymentAttempts } from "../db/schema";
import { PisError } from "../pis";
import { applyProviderStatus, expireIfDue } from "./apply-status";
import { loadCheckout } from "./checkouts";
import { nowOf, type CheckoutContext } from "./context";
import { endLapsedLinks } from "./saved-accounts/lapse";
import { resealOldTokens } from "./saved-accounts/tokens";
import { reconcileRefunds } from "./refund-status";
import { closeUnknownInitiation, initiationTimeoutMs } from "./attempts";

const MINUTE = 60_000;
/** Attempts younger than this are left to the landing page and the webhook. */
export const RECONCILE_AFTER_MS = 30_000;
const HOUR = 60 * MINUTE;

/** How long to wait before asking the provider again about an attempt of this age. */
export function nextCheckDelay(ageMs: number): number {
  if (ageMs < 5 * MINUTE) return 30_000;
  if (ageMs < HOUR) return 2 * MINUTE;
  if (ageMs < 24 * HOUR) return 15 * MINUTE;
  if (ageMs < 8 * 24 * HOUR) return HOUR;
  // Past the confirmLink's 7 days the provider settles it; until it says so, ask once a day. An
  // attempt is never given up on locally: only the provider knows whether money moved.
  return 24 * HOUR;
}

/** Open or failed checkouts past their expiry become expired. One in flight is left to its attempt. */
export async function expireCheckouts(ctx: CheckoutContext): Promise<number> {
  const due = await ctx.db
    .select({ id: checkouts.id })
    .from(checkouts)
    .where(and(inArray(checkouts.status, ["open", "failed"]), lte(checkouts.expiresAt, nowOf(ctx))))
    .limit(200);
  let n = 0;
  for (const { id } of due) {
    const row = await loadCheckout(ctx, id);
    if (row && (await expireIfDue(ctx, row)).status === "expired" && row.status !== "expired") n++;
  }
  return n;
}

/**
 * Attempts whose initiation never recorded an answer (the instance died, the answer was lost) step
 * aside so the payer can retry, once no live request can still be waiting on the provider. They
 * are not failed: a late webhook or return still settles them (closeUnknownInitiation).
 */
export async function closeStuckInitiations(ctx: CheckoutContext): Promise<number> {
  const stuck = await ctx.db
    .select({ id: paymentAttempts.id })
    .from(paymentAttempts)
    .where(
      and(
        isNull(paymentAttempts.statusGroup),
        isNull(paymentAttempts.providerPaymentId),
        isNull(paymentAttempts.abandonedAt),
        lte(paymentAttempts.createdAt, new Date(nowOf(ctx).getTime() - initiationTimeoutMs(ctx))),
      ),
    )
    .limit(200);
  let closed = 0;
  for (const { id } of stuck) if (await closeUnknownInitiation(ctx, id)) closed++;
  return closed;
}

// Attempts asked about at once; each call has the client's own timeout, so a slow or absent
// provider holds a pass for about one timeout per batch, not one per attempt.
const CHECK_BATCH = 16;
// Passes per tick are bounded too, so expiry and refunds get their turn under a large backlog.
const MAX_BATCHES_PER_PASS = 12;

/**
 * Asks the provider about attempts not final yet, backing off as they age. Each instance claims
 * a batch with SKIP LOCKED and a lease (next_check_at moved past the calls' timeout), so
 * instances share the work and a claim left by a dead one comes back after the lease.
 */
export async function refreshAttempts(ctx: CheckoutContext): Promise<number> {
  let applied = 0;
  for (let batch = 0; batch < MAX_BATCHES_PER_PASS; batch++) {
    const attempts = await claimChecks(ctx);
    if (attempts.length === 0) break;
    const results = await Promise.all(attempts.map((a) => refreshAttempt(ctx, a)));
    applied += results.filter(Boolean).length;
  }
  return applied;
}

async function claimChecks(ctx: CheckoutContext) {
  const now = nowOf(ctx);
  const due = await ctx.db.execute(sql`
    update ${paymentAttempts} set next_check_at = ${new Date(now.getTime() + ctx.config.pisTimeoutMs + 30_000)}
    where id in (
      select id from ${paymentAttempts}
      where provider_payment_id is not null
        and (status_group is null or status_group in ('started', 'pending'))
        -- A payer still at the bank is followed by the landing page and the webhook.
        and created_at <= ${new Date(now.getTime() - RECONCILE_AFTER_MS)}
        and (next_check_at is null or next_check_at <= ${now})
      order by next_check_at nulls first
      limit ${CHECK_BATCH}
      for update skip locked
    )
    returning id`);
  const ids = rowsOf<{ id: string }>(due).map((r) => r.id);
  return ids.length === 0 ? [] : ctx.db.select().from(paymentAttempts).where(inArray(paymentAttempts.id, ids));
}

async function refreshAttempt(ctx: CheckoutContext, attempt: typeof paymentAttempts.$inferSelect): Promise<boolean> {
  let applied = false;
  try {
    const status = await ctx.pis.payments.status(attempt.providerPaymentId!);
    applied = (await applyProviderStatus(ctx, { attemptId: attempt.id }, status, "reconciliation")) === "applied";
  } catch (err) {
    if (!(err instanceof PisError)) throw err;
  }
  const now = nowOf(ctx);
  await ctx.db
    .update(paymentAttempts)
    .set({
      checkedAt: now,
      nextCheckAt: new Date(now.getTime() + nextCheckDelay(now.getTime() - attempt.createdAt.getTime())),
    })
    .where(eq(paymentAttempts.id, attempt.id));
  return applied;
}

export async function reconcile(ctx: CheckoutContext) {
  return {
    expired: await expireCheckouts(ctx),
    closed: await closeStuckInitiations(ctx),
    refreshed: await refreshAttempts(ctx),
    refunds: await reconcileRefunds(ctx),
    linksEnded: await endLapsedLinks(ctx),
    tokensResealed: await resealOldTokens(ctx),
  };
}

/**
 * Runs reconciliation every `intervalMs` in this process. Returns a stop function for shutdown: no
 * new round, and the one under way is waited for (its provider calls are bounded by their timeout).
 */
export function startWorker(ctx: CheckoutContext, intervalMs: number): () => Promise<void> {
  return everyInterval(
    () => reconcile(ctx),
    intervalMs,
    (err) => console.error("reconciliation failed", err),
    "reconcile",
  );
}
