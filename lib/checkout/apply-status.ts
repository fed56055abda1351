import { and, desc, eq, inArray, isNull, ne, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { NormalisedStatus } from "../pis";
import type { Db } from "../db/client";
import { prepared } from "../db/prepared";
import {
  checkouts,
  paymentAttempts,
  webhookEvents,
  type CheckoutRow,
  type AttemptRow,
  type StatusSource,
} from "../db/schema";
import { nowOf, type CheckoutContext, type Tx } from "./context";
import { writeIfUnchanged, type GuardedWrite } from "./guarded-write";
import { notificationRow, type NotificationEvent } from "./notifications";
import { tell } from "./observer";
import {
  canMoveAttempt,
  canMoveCheckout,
  checkoutStatusForAttempt,
  isFinalCheckout,
  isFinalGroup,
} from "./status-machine";
import type { CheckoutStatus, PaymentMethod } from "./types";

export type ApplyOutcome = "applied" | "unchanged" | "unknown_attempt";

const EVENT_OF: Partial<Record<CheckoutStatus, NotificationEvent>> = {
  paid: "checkout.paid",
  failed: "checkout.payment_failed",
  expired: "checkout.expired",
};

/** Which attempt a provider status is for; `bind` also records the provider's payment id on it. */
export type StatusTarget =
  { providerPaymentId: string } | { attemptId: string; bind?: { providerPaymentId: string; confirmLink?: string } };

/**
 * Applies a provider status to one attempt and its checkout. The attempt, its checkout and what
 * the status machine needs of the other attempts are read in one statement; the change decided
 * from them is written in one statement that applies only if the checkout's version is still the
 * one read (lib/checkout/guarded-write.ts). When another write came in between (a webhook, a
 * payment start and a landing-page refresh arriving together), it reads and decides again, so the
 * status only ever moves forward from what is really stored. A completion while another attempt
 * already paid the checkout is recorded as a duplicate payment and reported to the merchant,
 * never dropped (ADR 13, ADR 19).
 */
export async function applyProviderStatus(
  ctx: CheckoutContext,
  target: StatusTarget,
  status: AppliedStatus,
  source: StatusSource,
  /**
   * The attempt as this request itself last wrote it, to decide on without reading it again (a
   * payment start, after the provider's answer). The write is still guarded by the version it
   * carries: if anything changed the checkout since, the write does not land and it is read.
   */
  asWritten?: SeenAttempt,
): Promise<ApplyOutcome> {
  return (await applyStatus(ctx, target, status, source, { asWritten })).outcome;
}

/** A provider webhook as kept for audit; its outcome is what applying it did. */
export type WebhookAudit = Omit<typeof webhookEvents.$inferInsert, "outcome">;

/**
 * applyProviderStatus for a webhook: when the status changes something, the webhook's audit row
 * is written in the same statement as the change (one round trip less, and never a change without
 * its record). `audited` says whether it was; if not, the caller stores it.
 */
export async function applyWebhookStatus(
  ctx: CheckoutContext,
  target: StatusTarget,
  status: AppliedStatus,
  audit: WebhookAudit,
): Promise<{ outcome: ApplyOutcome; audited: boolean }> {
  return applyStatus(ctx, target, status, "webhook", { audit });
}

async function applyStatus(
  ctx: CheckoutContext,
  target: StatusTarget,
  status: AppliedStatus,
  source: StatusSource,
  { audit, asWritten }: { audit?: WebhookAudit; asWritten?: SeenAttempt } = {},
): Promise<{ outcome: ApplyOutcome; audited: boolean }> {
  // Whether another attempt paid the checkout is not known from our own write: a completion is
  // always decided on what is read.
  let assumed = status.group === "completed" ? undefined : asWritten;
  for (let tries = 1; ; tries++) {
    const seen = assumed ?? (await readAttempt(ctx.db, target));
    assumed = undefined;
    if (!seen) return { outcome: "unknown_attempt", audited: false };
    const plan = planStatus(seen, target, status, source);
    if (!plan.write) return { outcome: plan.outcome, audited: false };
    const webhookEvent = audit && { ...audit, outcome: plan.outcome };
    if (await writeIfUnchanged(ctx.db, { ...plan.write, webhookEvent })) {
      if (plan.write.moveTo) reportMove(plan.write.moveTo, seen.attempt.method, seen.attempt.bankId);
      return { outcome: plan.outcome, audited: webhookEvent !== undefined };
    }
    // Each retry follows a write that did land, so this only ends under a storm of writes to one checkout.
    if (tries === MAX_TRIES) throw new Error(`checkout ${seen.checkout.id} kept changing under a status update`);
  }
}

const MAX_TRIES = 50;

type AppliedStatus = Pick<NormalisedStatus, "group" | "code" | "kind" | "errorCodes">;

/** An attempt and its checkout as read, with what the status machine needs of the other attempts. */
export interface SeenAttempt {
  checkout: CheckoutRow;
  /** Its times are not needed to decide, and a new attempt's are the database's own. */
  attempt: Omit<AttemptRow, "createdAt" | "updatedAt">;
  /** The checkout's newest attempt not stepped aside: the one its status follows. */
  currentAttemptId: string | null;
  /** Whether another attempt of the checkout already completed (and was not itself a duplicate). */
  paidByAnother: boolean;
}

function readAttemptWhere(db: Db, where: SQL, name: string) {
  const other = alias(paymentAttempts, "other");
  const ofThisCheckout = eq(other.checkoutId, paymentAttempts.checkoutId);
  const current = db
    .select({ id: other.id })
    .from(other)
    .where(and(ofThisCheckout, isNull(other.abandonedAt)))
    .orderBy(desc(other.createdAt))
    .limit(1);
  const paying = db
    .select({ id: other.id })
    .from(other)
    .where(
      and(
        ofThisCheckout,
        eq(other.statusGroup, "completed"),
        isNull(other.duplicateAt),
        ne(other.id, paymentAttempts.id),
      ),
    );
  return db
    .select({
      checkout: checkouts,
      attempt: paymentAttempts,
      currentAttemptId: sql<string | null>`(${current})`,
      paidByAnother: sql<boolean>`exists (${paying})`,
    })
    .from(paymentAttempts)
    .innerJoin(checkouts, eq(checkouts.id, paymentAttempts.checkoutId))
    .where(where)
    .prepare(name);
}

const readById = prepared((db) =>
  readAttemptWhere(db, eq(paymentAttempts.id, sql.placeholder("key")), "read_attempt_by_id"),
);
const readByProviderId = prepared((db) =>
  readAttemptWhere(db, eq(paymentAttempts.providerPaymentId, sql.placeholder("key")), "read_attempt_by_provider_id"),
);

async function readAttempt(db: Db, target: StatusTarget): Promise<SeenAttempt | undefined> {
  const [row] =
    "attemptId" in target
      ? await readById(db).execute({ key: target.attemptId })
      : await readByProviderId(db).execute({ key: target.providerPaymentId });
  return row;
}

/** What applying `status` to the attempt as read comes to, and what it writes (nothing when nothing changes). */
export function planStatus(
  seen: SeenAttempt,
  target: StatusTarget,
  status: AppliedStatus,
  source: StatusSource,
): { outcome: ApplyOutcome; write?: GuardedWrite } {
  const { checkout, attempt } = seen;
  const bind = "attemptId" in target ? target.bind : undefined;
  // An attempt belongs to one provider payment: a different id is not this attempt's.
  if (bind && attempt.providerPaymentId !== null && attempt.providerPaymentId !== bind.providerPaymentId)
    return { outcome: "unknown_attempt" };
  const binding =
    bind && (attempt.providerPaymentId === null || (bind.confirmLink && attempt.confirmLink === null))
      ? { providerPaymentId: bind.providerPaymentId, confirmLink: bind.confirmLink ?? attempt.confirmLink }
      : undefined;
  const now = new Date();
  const guard = { id: checkout.id, version: checkout.version };
  // A payment the payer had stopped and still approved at the bank (a tab left open), while no
  // other is under way: the checkout follows it again, so that its outcome is the checkout's and no
  // second payment starts meanwhile (the attempts before it step aside). Also when its approval was
  // seen before, while another payment was still under way (the status itself unchanged).
  const taken =
    attempt.abandonedAt !== null &&
    !isFinalGroup(attempt.statusGroup) &&
    status.group === "pending" &&
    (checkout.status === "open" || checkout.status === "failed");
  if (
    !taken &&
    !canMoveAttempt(
      { group: attempt.statusGroup, code: attempt.providerStatus },
      { group: status.group, code: status.code },
    )
  ) {
    const outcome = bind && attempt.providerPaymentId === null ? "applied" : "unchanged";
    if (!binding) return { outcome };
    return {
      outcome,
      write: { checkout: guard, attemptUpdate: { id: attempt.id, set: { ...binding, updatedAt: now } } },
    };
  }
  const duplicate = status.group === "completed" && seen.paidByAnother;
  // The binding and the status in one write: no crash can leave one without the other.
  const attemptUpdate = {
    id: attempt.id,
    set: {
      ...binding,
      statusGroup: status.group,
      providerStatus: status.code,
      providerStatusKind: status.kind,
      errorCodes: status.errorCodes.length > 0 ? status.errorCodes : attempt.errorCodes,
      completedAt: status.group === "completed" ? now : attempt.completedAt,
      duplicateAt: duplicate ? now : attempt.duplicateAt,
      ...(taken ? { abandonedAt: null } : {}),
      updatedAt: now,
    },
  };
  // The attempt changed even if the checkout does not move: that goes in the history too.
  const history = {
    checkoutId: checkout.id,
    attemptId: attempt.id,
    fromStatus: checkout.status,
    toStatus: checkout.status,
    providerStatus: status.code,
    source,
  };
  const applied = (write: Omit<GuardedWrite, "checkout" | "attemptUpdate">) => ({
    outcome: "applied" as const,
    write: { checkout: guard, attemptUpdate, ...(taken ? { othersAside: now } : {}), ...write },
  });
  if (duplicate) {
    return applied({
      event: history,
      notification: notificationRow(checkout, "checkout.duplicate_payment", {
        status: checkout.status,
        attemptId: attempt.id,
      }),
    });
  }
  // The checkout follows its current attempt. An older or abandoned one still makes it paid if
  // it completes (the money moved), but its failure says nothing about the checkout, unless it
  // was taken back above.
  const next = checkoutStatusForAttempt(status.group);
  const moves =
    (seen.currentAttemptId === attempt.id || taken || next === "paid") &&
    checkout.status !== next &&
    canMoveCheckout(checkout.status, next);
  if (!moves) return applied({ event: history });
  const event = EVENT_OF[next];
  return applied({
    moveTo: next,
    event: { ...history, toStatus: next },
    notification: event && notificationRow(checkout, event, { status: next, attemptId: attempt.id }),
  });
}

/**
 * Locks one attempt and its checkout in the house order, the checkout row first, then the
 * attempt row, so that no two transactions on one checkout can wait on each other (ADR 13). The
 * checkout is locked by raising its version, so a status update that read it before this
 * transaction reads again (ADR 19).
 */
export async function lockAttempt(
  tx: Tx,
  where: SQL,
): Promise<{ checkout: CheckoutRow; attempt: AttemptRow } | undefined> {
  const [checkout] = await tx
    .update(checkouts)
    .set({ version: sql`${checkouts.version} + 1` })
    .where(inArray(checkouts.id, tx.select({ id: paymentAttempts.checkoutId }).from(paymentAttempts).where(where)))
    .returning();
  if (!checkout) return undefined;
  const [attempt] = await tx
    .select()
    .from(paymentAttempts)
    .where(and(where, eq(paymentAttempts.checkoutId, checkout.id)))
    .for("update");
  if (!attempt) throw new Error(`checkout ${checkout.id} lost its attempt`);
  return { checkout, attempt };
}

/**
 * What moving a checkout's own status writes, if the status machine allows the move: the new
 * status, the history entry with its source, and the merchant's notification. Nothing otherwise.
 */
export function checkoutMove(
  checkout: CheckoutRow,
  to: CheckoutStatus,
  source: StatusSource,
  attemptId?: string,
): Pick<GuardedWrite, "moveTo" | "event" | "notification"> | null {
  if (checkout.status === to || !canMoveCheckout(checkout.status, to)) return null;
  const event = EVENT_OF[to];
  return {
    moveTo: to,
    event: { checkoutId: checkout.id, attemptId, fromStatus: checkout.status, toStatus: to, source },
    notification: event && notificationRow(checkout, event, { status: to, ...(attemptId ? { attemptId } : {}) }),
  };
}

/**
 * Moves a checkout's own status (checkoutMove) in one statement. For a caller that holds the
 * checkout's lock, read under it: the version it read cannot have changed.
 */
export async function moveCheckout(
  tx: Tx,
  checkout: CheckoutRow,
  to: CheckoutStatus,
  source: StatusSource,
  attemptId?: string,
): Promise<boolean> {
  const move = checkoutMove(checkout, to, source, attemptId);
  if (!move) return false;
  const written = await writeIfUnchanged(tx, { checkout, ...move });
  if (!written) throw new Error(`checkout ${checkout.id} changed under its lock`);
  reportMove(to, null, null);
  return true;
}

/**
 * Every move to a final status lands through applyStatus or moveCheckout (a payment start only
 * ever moves to processing): the metrics' count of ended checkouts. Counted once the statement
 * applied; a transaction rolled back after it (rare) is still counted.
 */
function reportMove(to: CheckoutStatus, method: PaymentMethod | null, bankId: string | null) {
  if (isFinalCheckout(to)) tell((o) => o.ended(to, method, bankId));
}

/**
 * Expires an open or failed checkout past its time as soon as anyone looks at it, so neither the
 * payer nor the merchant sees a payable order that has ended while the worker's next round is due.
 */
export async function expireIfDue(ctx: CheckoutContext, checkout: CheckoutRow): Promise<CheckoutRow> {
  if ((checkout.status !== "open" && checkout.status !== "failed") || checkout.expiresAt > nowOf(ctx)) return checkout;
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx.select().from(checkouts).where(eq(checkouts.id, checkout.id)).for("update");
    if (!row) return checkout;
    return (await moveCheckout(tx, row, "expired", "system")) ? { ...row, status: "expired" as const } : row;
  });
}
