import { and, eq, inArray, isNull, lte, or } from "drizzle-orm";
import { checkouts, paymentAttempts } from "../db/schema";
import { PisError } from "../pis";
import { applyProviderStatus } from "./apply-status";
import { expireIfDue, loadCheckout } from "./checkouts";
import { nowOf, type CheckoutContext } from "./context";
import { deliverDueNotifications } from "./notifications";
import { failAttempt } from "./payments";
import { endLapsedLinks } from "./saved-accounts";

/**
 * An initiation with no provider answer after this long is closed: a live request gives up on the
 * provider after the client's timeout (POSTs are never retried), so past that and a margin for
 * our own writes, the process that made it has died (a crash, a deploy) and the payer may retry.
 */
export const initiationTimeoutMs = (ctx: CheckoutContext) => ctx.config.pisTimeoutMs + 15_000;
const MINUTE = 60_000;
/** Attempts younger than this are left to the landing page and the webhook. */
export const RECONCILE_AFTER_MS = 30_000;
const HOUR = 60 * MINUTE;

/** How long to wait before asking the provider again about an attempt of this age. */
export function nextCheckDelay(ageMs: number): number | null {
  if (ageMs < 5 * MINUTE) return 30_000;
  if (ageMs < HOUR) return 2 * MINUTE;
  if (ageMs < 24 * HOUR) return 15 * MINUTE;
  // The confirmLink lives 7 days; a day past that the provider has settled it one way or the other.
  if (ageMs < 8 * 24 * HOUR) return HOUR;
  return null;
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

/** Attempts whose provider call never returned (a crash, a lost process) are closed so the payer can retry. */
export async function closeStuckInitiations(ctx: CheckoutContext): Promise<number> {
  const stuck = await ctx.db
    .select({ id: paymentAttempts.id })
    .from(paymentAttempts)
    .where(and(isNull(paymentAttempts.statusGroup), lte(paymentAttempts.createdAt, new Date(nowOf(ctx).getTime() - initiationTimeoutMs(ctx)))))
    .limit(200);
  for (const { id } of stuck) await failAttempt(ctx, id, "initiation_timeout");
  return stuck.length;
}

/** Asks the provider about attempts still in flight, backing off as they age. */
export async function refreshAttempts(ctx: CheckoutContext): Promise<number> {
  const now = nowOf(ctx);
  const due = await ctx.db
    .select()
    .from(paymentAttempts)
    .where(
      and(
        inArray(paymentAttempts.statusGroup, ["started", "pending"]),
        // A payer still at the bank is followed by the landing page and the webhook; reconciliation
        // is for the ones nobody else is watching.
        lte(paymentAttempts.createdAt, new Date(now.getTime() - RECONCILE_AFTER_MS)),
        or(isNull(paymentAttempts.nextCheckAt), lte(paymentAttempts.nextCheckAt, now)),
      ),
    )
    .limit(100);
  let applied = 0;
  for (const attempt of due) {
    if (!attempt.providerPaymentId) continue;
    const delay = nextCheckDelay(now.getTime() - attempt.createdAt.getTime());
    try {
      const status = await ctx.pis.payments.status(attempt.providerPaymentId);
      if ((await applyProviderStatus(ctx, { attemptId: attempt.id }, status, "reconciliation")) === "applied") applied++;
    } catch (err) {
      if (!(err instanceof PisError)) throw err;
    }
    await ctx.db
      .update(paymentAttempts)
      .set({ checkedAt: now, nextCheckAt: new Date(now.getTime() + (delay ?? 100 * 365 * 24 * HOUR)) })
      .where(eq(paymentAttempts.id, attempt.id));
  }
  return applied;
}

export async function reconcile(ctx: CheckoutContext) {
  return {
    expired: await expireCheckouts(ctx),
    closed: await closeStuckInitiations(ctx),
    refreshed: await refreshAttempts(ctx),
    notified: await deliverDueNotifications(ctx),
    linksEnded: await endLapsedLinks(ctx),
  };
}

/** Runs reconciliation every `intervalMs` in this process; returns a stop function. */
export function startWorker(ctx: CheckoutContext, intervalMs: number): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    reconcile(ctx)
      .catch((err) => console.error("reconciliation failed", err))
      .finally(() => (running = false));
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
