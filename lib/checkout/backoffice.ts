import { and, asc, desc, eq, gte, ilike, inArray, lt, or, sql, type SQL } from "drizzle-orm";
import { listAudit } from "../audit/audit";
import { listRefundRequests } from "../refund-approvals/approvals";
import { checkouts, notifications, paymentAttempts, refunds, statusEvents, webhookEvents } from "../db/schema";
import { loadCheckout, refundTotalsOf, toAttemptView, toCheckoutView } from "./checkouts";
import type { CheckoutContext } from "./context";
import { CheckoutError } from "./errors";
import type { CheckoutList, StaffDetail, StaffListing } from "./contract";
import { fromMinor, toMinor } from "./money";
import type { CheckoutFilter } from "./backoffice-filter";
import { withinMs } from "./poll";
import { findBank } from "./project";
import { givenUp } from "./resend-notification";

const PAGE_SIZE = 25;

/** One page of checkouts, newest first, as the merchant lists them (GET /api/checkouts). */
export async function listCheckouts(filter: CheckoutFilter, c: CheckoutContext): Promise<CheckoutList> {
  const { page, hasMore } = await checkoutPage(filter, c);
  const totals = await refundTotalsOf(c.db, page, c.pis.profile.refunds);
  return { items: page.map((row) => ({ ...toCheckoutView(row), ...totals.get(row.id)! })), page: filter.page, hasMore };
}

export async function listCheckoutsForStaff(filter: CheckoutFilter, c: CheckoutContext): Promise<StaffListing> {
  const { page, hasMore } = await checkoutPage(filter, c);
  const attempts = page.length
    ? await c.db
        .select()
        .from(paymentAttempts)
        .where(
          inArray(
            paymentAttempts.checkoutId,
            page.map((r) => r.id),
          ),
        )
        .orderBy(desc(paymentAttempts.createdAt))
    : [];
  const items = page.map((row) => {
    const latest = attempts.find((a) => a.checkoutId === row.id);
    const own = attempts.filter((a) => a.checkoutId === row.id);
    return {
      ...toCheckoutView(row),
      bankId: latest?.bankId ?? null,
      attempts: own.length,
      paidTwice: own.some((a) => a.duplicateAt !== null),
    };
  });
  return {
    items,
    page: filter.page,
    hasMore,
    bankNames: await bankNames(
      c,
      items.map((i) => i.bankId),
    ),
  };
}

/** The start of a day (UTC), or of the day `later` days after it. */
const startOf = (day: string, later = 0) => new Date(new Date(`${day}T00:00:00Z`).getTime() + later * 24 * 3600_000);

/** The checkouts of one page of the list's filter, newest first, and whether another page follows. */
async function checkoutPage(filter: CheckoutFilter, c: CheckoutContext) {
  const where: SQL[] = [];
  if (filter.status) where.push(eq(checkouts.status, filter.status));
  if (filter.from) where.push(gte(checkouts.createdAt, startOf(filter.from)));
  if (filter.to) where.push(lt(checkouts.createdAt, startOf(filter.to, 1)));
  if (filter.updatedFrom) where.push(gte(checkouts.updatedAt, startOf(filter.updatedFrom)));
  if (filter.updatedTo) where.push(lt(checkouts.updatedAt, startOf(filter.updatedTo, 1)));
  if (filter.q) {
    const like = `%${filter.q.replace(/[%_\\]/g, (m) => `\\${m}`)}%`;
    where.push(or(ilike(checkouts.reference, like), eq(checkouts.id, filter.q))!);
  }
  if (filter.bank) {
    where.push(
      inArray(
        checkouts.id,
        c.db
          .select({ id: paymentAttempts.checkoutId })
          .from(paymentAttempts)
          .where(eq(paymentAttempts.bankId, filter.bank)),
      ),
    );
  }
  if (filter.startingAfter) {
    const [after] = await c.db
      .select({ id: checkouts.id })
      .from(checkouts)
      .where(eq(checkouts.id, filter.startingAfter));
    if (!after)
      throw new CheckoutError("invalid_request", {
        detail: "The list cannot start there.",
        errors: [{ path: "startingAfter", message: "must be the id of one of your checkouts" }],
      });
    // The list's own order, compared in the database (its timestamps are finer than a Date's).
    where.push(
      sql`(${checkouts.createdAt}, ${checkouts.id}) < (select created_at, id from checkouts where id = ${after.id})`,
    );
  }
  const rows = await c.db
    .select()
    .from(checkouts)
    .where(where.length ? and(...where) : undefined)
    // The id breaks ties of one millisecond, so that pages neither repeat nor skip a checkout.
    .orderBy(desc(checkouts.createdAt), desc(checkouts.id))
    .limit(PAGE_SIZE + 1)
    .offset((filter.page - 1) * PAGE_SIZE);
  return { page: rows.slice(0, PAGE_SIZE), hasMore: rows.length > PAGE_SIZE };
}

/** Everything staff need about one checkout: attempts, the status timeline with sources, webhooks, notifications, refunds. */
export async function checkoutDetailForStaff(id: string, c: CheckoutContext): Promise<StaffDetail | null> {
  const checkout = await loadCheckout(c, id);
  if (!checkout) return null;
  const attempts = await c.db
    .select()
    .from(paymentAttempts)
    .where(eq(paymentAttempts.checkoutId, id))
    .orderBy(asc(paymentAttempts.createdAt));
  const paymentIds = attempts.map((a) => a.providerPaymentId).filter((p): p is string => p !== null);
  const [timeline, webhooks, notes, refundRows, staffRows, requests] = await Promise.all([
    c.db.select().from(statusEvents).where(eq(statusEvents.checkoutId, id)).orderBy(asc(statusEvents.id)),
    paymentIds.length
      ? c.db
          .select()
          .from(webhookEvents)
          .where(inArray(webhookEvents.providerPaymentId, paymentIds))
          .orderBy(asc(webhookEvents.id))
      : Promise.resolve([]),
    // In the order the outbox sends them (claimDue).
    c.db
      .select()
      .from(notifications)
      .where(eq(notifications.checkoutId, id))
      .orderBy(asc(notifications.createdAt), asc(notifications.id)),
    c.db.select().from(refunds).where(eq(refunds.checkoutId, id)).orderBy(asc(refunds.createdAt)),
    listAudit(c.db, { targetId: id, limit: 200 }),
    listRefundRequests(c, { checkoutId: id }),
  ]);
  // What is left to refund of one payment: the paying one, or a duplicate the payer sent twice.
  const refundableOf = (attemptId: string) =>
    fromMinor(
      toMinor(checkout.amount, checkout.currency) -
        refundRows
          .filter((r) => r.attemptId === attemptId && r.statusGroup !== "failed")
          .reduce((s, r) => s + toMinor(r.amount, checkout.currency), 0n),
      checkout.currency,
    );
  const paying = attempts.find((a) => a.statusGroup === "completed" && a.duplicateAt === null);
  return {
    checkout: toCheckoutView(checkout),
    notifyUrl: checkout.notifyUrl && withoutPassword(checkout.notifyUrl),
    attempts: attempts.map((a) => ({
      ...toAttemptView(a),
      providerPaymentId: a.providerPaymentId,
      failureReason: a.failureReason,
      errorCodes: a.errorCodes ?? [],
    })),
    timeline: timeline.map((e) => ({
      at: e.createdAt.toISOString(),
      from: e.fromStatus,
      to: e.toStatus,
      providerStatus: e.providerStatus,
      source: e.source,
      attemptId: e.attemptId,
    })),
    refundRequests: requests.map((r) => ({
      id: r.id,
      amount: r.amount,
      reason: r.reason,
      state: r.state,
      requestedBy: r.requestedBy,
      requestedByEmail: r.requestedByEmail,
      requestedAt: r.requestedAt.toISOString(),
      decidedByEmail: r.decidedByEmail,
      decidedAt: r.decidedAt?.toISOString() ?? null,
    })),
    staffActions: staffRows
      .filter((r) => r.actorKind === "staff" || r.actorKind === "api_key")
      .reverse()
      .map((r) => ({
        at: r.occurredAt.toISOString(),
        by: r.actorKind === "api_key" ? `API key ${r.actorLabel ?? r.actorId}` : (r.actorLabel ?? r.actorId ?? ""),
        action: r.action,
        outcome: r.outcome,
        detail: r.detail,
      })),
    webhooks: webhooks.map((w) => ({
      at: w.receivedAt.toISOString(),
      type: w.type,
      signatureValid: w.signatureValid,
      outcome: w.outcome,
    })),
    notifications: notes.map((n, i) => ({
      id: n.id,
      event: n.event,
      url: withoutPassword(n.url),
      attempts: n.attempts,
      deliveredAt: n.deliveredAt?.toISOString() ?? null,
      lastStatus: n.lastStatus,
      lastError: n.lastError,
      givenUp: givenUp(n),
      laterDelivered: givenUp(n) ? (notes.slice(i + 1).findLast((later) => later.deliveredAt)?.event ?? null) : null,
    })),
    refunds: refundRows.map((r) => ({
      id: r.id,
      attemptId: r.attemptId,
      amount: r.amount,
      status: r.statusGroup ?? "unknown",
      reason: r.reason,
      failureReason: r.failureReason,
      createdBy: r.createdBy,
      createdAt: r.createdAt.toISOString(),
    })),
    refundable: checkout.status === "paid" && paying ? refundableOf(paying.id) : "0.00",
    duplicates: attempts
      .filter((a) => a.duplicateAt !== null)
      .map((a) => ({
        attemptId: a.id,
        providerPaymentId: a.providerPaymentId,
        completedAt: (a.completedAt ?? a.updatedAt).toISOString(),
        refundable: refundableOf(a.id),
      })),
    bankNames: await bankNames(
      c,
      attempts.map((a) => a.bankId),
    ),
  };
}

/** Payments of the last `days` days by day and status, and by bank, for the dashboard chart. */
export async function paymentStats(days = 30, c: CheckoutContext) {
  const since = new Date(Date.now() - days * 24 * 3600_000);
  const day = sql<string>`to_char(${checkouts.createdAt} at time zone 'UTC', 'YYYY-MM-DD')`;
  const byDay = await c.db
    .select({ day, status: checkouts.status, count: sql<number>`count(*)::int` })
    .from(checkouts)
    .where(gte(checkouts.createdAt, since))
    .groupBy(day, checkouts.status)
    .orderBy(day);
  const byBank = await c.db
    .select({ bankId: paymentAttempts.bankId, status: paymentAttempts.statusGroup, count: sql<number>`count(*)::int` })
    .from(paymentAttempts)
    .where(gte(paymentAttempts.createdAt, since))
    .groupBy(paymentAttempts.bankId, paymentAttempts.statusGroup);
  return { since: since.toISOString(), byDay, byBank };
}

const BANK_NAME_TIMEOUT_MS = 2_000;

/**
 * Display names of bank ids ("Swedbank (LT)"), from the provider's cached bank list. A slow or
 * failing provider must not hold staff up: the id itself is shown instead.
 */
export async function bankNames(c: CheckoutContext, ids: Iterable<string | null>): Promise<Record<string, string>> {
  const unique = [...new Set([...ids].filter((id): id is string => !!id))];
  const found = await Promise.all(
    unique.map((id) =>
      withinMs(
        findBank(c, id).catch(() => null),
        BANK_NAME_TIMEOUT_MS,
      ),
    ),
  );
  return Object.fromEntries(unique.map((id, i) => [id, found[i] ? `${found[i].name} (${found[i].countryCode})` : id]));
}

/**
 * A merchant's notify URL as staff see it: a password in it (Basic auth the notifier sends) is the
 * merchant's secret, shown to nobody. The user name stays, to tell two such URLs apart.
 */
function withoutPassword(url: string): string {
  if (!URL.canParse(url)) return url;
  const parsed = new URL(url);
  if (!parsed.password) return url;
  parsed.password = "•••";
  return parsed.toString().replace(encodeURIComponent("•••"), "•••");
}
