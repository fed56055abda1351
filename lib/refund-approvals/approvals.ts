import { randomUUID } from "node:crypto";
import { and, desc, eq, isNull, or, type SQL } from "drizzle-orm";
import type { AuditActor } from "../audit/audit";
import { recordAudit } from "../audit/audit";
import type { CheckoutContext, Tx } from "../checkout/context";
import { CheckoutError } from "../checkout/errors";
import { toMinor } from "../checkout/money";
import { committedMinor } from "../checkout/checkouts";
import { checkRefundable, createRefund } from "../checkout/refunds";
import type { RefundView } from "../checkout/contract";
import type { Db } from "../db/client";
import { refundRequests, refunds, type RefundRequestStatus } from "../db/schema";

/**
 * Four eyes on large refunds (ADR 27): a staff refund that takes a checkout's refunds above
 * REFUND_APPROVAL_ABOVE is recorded as requested and goes to the provider only when another finance
 * or admin person approves it. Nobody approves their own; a request not decided within 7 days has
 * lapsed. The refund itself is made with the request's own idempotency key, so an approval sent
 * twice, or by two people at once, refunds once.
 */

export const APPROVAL_WINDOW_MS = 7 * 24 * 3600_000;

export type RequestState = RefundRequestStatus | "lapsed";

export interface RefundRequestView {
  id: string;
  checkoutId: string;
  attemptId: string | null;
  amount: string;
  reason: string | null;
  state: RequestState;
  requestedBy: string;
  requestedByEmail: string;
  requestedAt: Date;
  decidedBy: string | null;
  decidedByEmail: string | null;
  decidedAt: Date | null;
  refundId: string | null;
}

export class ApprovalError extends Error {
  constructor(
    readonly code: "not_found" | "own_request" | "decided" | "lapsed",
    message: string,
    /** The request's checkout, when there is such a request: what the audit trail names. */
    readonly checkoutId?: string,
  ) {
    super(message);
  }
}

interface StaffActor {
  id: string;
  email: string;
}

const stateOf = (status: RefundRequestStatus, requestedAt: Date, now: Date): RequestState =>
  status === "requested" && now.getTime() - requestedAt.getTime() > APPROVAL_WINDOW_MS ? "lapsed" : status;

/**
 * Whether a staff refund needs a second person (`above` unset: never): when it, with the checkout's
 * refunds so far (every one not failed) and the requests waiting for approval, comes to more than
 * `above`. Judged by this refund alone, one person could refund any amount in parts under the limit.
 * Read in `db`, which `approvalGate` makes the refund's own transaction, under its checkout's lock.
 */
export async function needsApproval(
  db: Db | Tx,
  input: { checkoutId: string; amount: string; currency: string },
  above: string | undefined,
  now = new Date(),
): Promise<boolean> {
  if (above === undefined) return false;
  const { checkoutId, currency } = input;
  const made = await db
    .select({ amount: refunds.amount, statusGroup: refunds.statusGroup })
    .from(refunds)
    .where(eq(refunds.checkoutId, checkoutId));
  const asked = await db
    .select({ amount: refundRequests.amount, status: refundRequests.status, requestedAt: refundRequests.requestedAt })
    .from(refundRequests)
    .where(and(eq(refundRequests.checkoutId, checkoutId), eq(refundRequests.status, "requested")));
  const waiting = asked.filter((r) => stateOf(r.status, r.requestedAt, now) === "requested");
  const total =
    committedMinor(made, currency) +
    waiting.reduce((sum, r) => sum + toMinor(r.amount, currency), toMinor(input.amount, currency));
  return total > toMinor(above, currency);
}

/** Thrown by `approvalGate`: this refund is to be asked for, not made. */
export class ApprovalNeeded extends Error {
  constructor(readonly currency: string) {
    super("this refund needs a second person's approval");
  }
}

/**
 * `needsApproval` as a staff refund's check under its checkout's lock (createRefund's `underLock`):
 * two refunds sent at once, each under the limit alone, are counted one after the other, so the
 * second is asked for rather than made.
 */
export const approvalGate =
  (checkoutId: string, currency: string, above: string | undefined) =>
  async (tx: Tx, amount: string): Promise<void> => {
    if (await needsApproval(tx, { checkoutId, amount, currency }, above)) throw new ApprovalNeeded(currency);
  };

const actorOf = (who: StaffActor): AuditActor => ({ kind: "staff", id: who.id, label: who.email });

/**
 * Records a refund someone else must approve, once it passes every check a refund made now would
 * (paid, refundable, within what is left): a request the payment cannot cover is refused when
 * asked, not when approved a week later. The approval checks again.
 */
export async function requestRefund(
  c: CheckoutContext,
  who: StaffActor,
  input: { checkoutId: string; attemptId?: string; amount: string; reason?: string; currency: string },
  clientAddress?: string,
): Promise<RefundRequestView> {
  const id = `rr_${randomUUID()}`;
  const amount = await checkRefundable(c, input.checkoutId, input);
  await c.db.transaction(async (tx) => {
    await tx.insert(refundRequests).values({
      id,
      checkoutId: input.checkoutId,
      attemptId: input.attemptId ?? null,
      amount,
      reason: input.reason ?? null,
      requestedBy: who.id,
      requestedByEmail: who.email,
    });
    await recordAudit(tx, {
      actor: actorOf(who),
      action: "refund.requested",
      target: { kind: "checkout", id: input.checkoutId },
      outcome: "succeeded",
      detail: { amount, request: id },
      clientAddress,
    });
  });
  return (await listRefundRequests(c, { id }))[0]!;
}

export async function listRefundRequests(
  c: CheckoutContext,
  filter: { id?: string; checkoutId?: string; waiting?: boolean } = {},
  now = new Date(),
): Promise<RefundRequestView[]> {
  const where: SQL[] = [];
  if (filter.id) where.push(eq(refundRequests.id, filter.id));
  if (filter.checkoutId) where.push(eq(refundRequests.checkoutId, filter.checkoutId));
  if (filter.waiting) where.push(eq(refundRequests.status, "requested"));
  const rows = await c.db
    .select()
    .from(refundRequests)
    .where(where.length ? and(...where) : undefined)
    .orderBy(desc(refundRequests.requestedAt))
    .limit(200);
  return rows
    .map((r) => ({
      id: r.id,
      checkoutId: r.checkoutId,
      attemptId: r.attemptId,
      amount: r.amount,
      reason: r.reason,
      state: stateOf(r.status, r.requestedAt, now),
      requestedBy: r.requestedBy,
      requestedByEmail: r.requestedByEmail,
      requestedAt: r.requestedAt,
      decidedBy: r.decidedBy,
      decidedByEmail: r.decidedByEmail,
      decidedAt: r.decidedAt,
      refundId: r.refundId,
    }))
    .filter((r) => !filter.waiting || r.state === "requested");
}

const decidedAlready = (request: RefundRequestView) =>
  new ApprovalError("decided", "This request has been decided already.", request.checkoutId);

async function decidable(c: CheckoutContext, who: StaffActor, id: string, now: Date): Promise<RefundRequestView> {
  const [request] = await listRefundRequests(c, { id }, now);
  if (!request) throw new ApprovalError("not_found", "No such refund request.");
  if (request.requestedBy === who.id)
    throw new ApprovalError(
      "own_request",
      "You asked for this refund: someone else must approve it.",
      request.checkoutId,
    );
  if (request.state === "lapsed")
    throw new ApprovalError(
      "lapsed",
      "This request was not approved within 7 days and has lapsed. Ask again.",
      request.checkoutId,
    );
  // Its approver may approve again one cut short before its refund was recorded: the same key refunds once.
  const retry = request.state === "approved" && !request.refundId && request.decidedBy === who.id;
  if (request.state !== "requested" && !retry) throw decidedAlready(request);
  return request;
}

/** A second person approves: the refund goes to the provider now. */
export async function approveRefund(
  c: CheckoutContext,
  who: StaffActor,
  id: string,
  clientAddress?: string,
  now = new Date(),
): Promise<RefundView> {
  const request = await decidable(c, who, id, now);
  // Taken first, so a rejection at the same moment cannot follow a refund already sent.
  const [taken] = await c.db
    .update(refundRequests)
    .set({ status: "approved", decidedBy: who.id, decidedByEmail: who.email, decidedAt: now })
    .where(
      and(
        eq(refundRequests.id, id),
        or(
          eq(refundRequests.status, "requested"),
          and(
            eq(refundRequests.status, "approved"),
            isNull(refundRequests.refundId),
            eq(refundRequests.decidedBy, who.id),
          ),
        ),
      ),
    )
    .returning({ id: refundRequests.id });
  if (!taken) throw decidedAlready(request);
  let refund: RefundView;
  try {
    refund = await createRefund(
      request.checkoutId,
      { amount: request.amount, reason: request.reason ?? undefined, attemptId: request.attemptId ?? undefined },
      "staff",
      c,
      { idempotencyKey: `approval-${request.id}` },
    );
  } catch (err) {
    // Refused (more than is left to refund, say): the request waits again, to be rejected or retried.
    if (err instanceof CheckoutError)
      await c.db
        .update(refundRequests)
        .set({ status: "requested", decidedBy: null, decidedByEmail: null, decidedAt: null })
        .where(and(eq(refundRequests.id, id), isNull(refundRequests.refundId)));
    await recordAudit(c.db, {
      actor: actorOf(who),
      action: "refund.approved",
      target: { kind: "checkout", id: request.checkoutId },
      outcome: "failed",
      detail: { request: id, reason: err instanceof CheckoutError ? err.code : "internal_error" },
      clientAddress,
    });
    throw err;
  }
  await c.db.update(refundRequests).set({ refundId: refund.id }).where(eq(refundRequests.id, id));
  await recordAudit(c.db, {
    actor: actorOf(who),
    action: "refund.approved",
    target: { kind: "checkout", id: request.checkoutId },
    outcome: "succeeded",
    detail: { request: id, amount: request.amount, requestedBy: request.requestedByEmail, refundId: refund.id },
    clientAddress,
  });
  return refund;
}

export async function rejectRefund(
  c: CheckoutContext,
  who: StaffActor,
  id: string,
  clientAddress?: string,
  now = new Date(),
): Promise<void> {
  const request = await decidable(c, who, id, now);
  const [rejected] = await c.db
    .update(refundRequests)
    .set({ status: "rejected", decidedBy: who.id, decidedByEmail: who.email, decidedAt: now })
    .where(and(eq(refundRequests.id, id), eq(refundRequests.status, "requested")))
    .returning({ id: refundRequests.id });
  if (!rejected) throw decidedAlready(request);
  await recordAudit(c.db, {
    actor: actorOf(who),
    action: "refund.rejected",
    target: { kind: "checkout", id: request.checkoutId },
    outcome: "succeeded",
    detail: { request: id, amount: request.amount, requestedBy: request.requestedByEmail },
    clientAddress,
  });
}
