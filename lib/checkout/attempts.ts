import { and, asc, eq, inArray, isNull, or } from "drizzle-orm";
import { AttemptRow, paymentAttempts } from "../db/schema";
import { applyProviderStatus, lockAttempt, moveCheckout } from "./apply-status";
import { nowOf, type CheckoutContext } from "./context";
import { StartPaymentResponse } from "./contract";
import { CheckoutError } from "./errors";
import { pollUntil } from "./poll";

/**
 * The checkout's attempt in flight, the one-in-flight index's rule (lib/db/schema.ts): not stepped
 * aside, and started, pending, or with no status yet (the provider has not answered its start).
 */
export const inFlightOf = (checkoutId: string) =>
  and(
    eq(paymentAttempts.checkoutId, checkoutId),
    isNull(paymentAttempts.abandonedAt),
    or(isNull(paymentAttempts.statusGroup), inArray(paymentAttempts.statusGroup, ["started", "pending"])),
  );

/**
 * Steps an attempt aside whose initiation has no known outcome (the provider's answer was lost, or
 * the instance making it died): the checkout is open again so the payer can retry, and the attempt
 * waits, unfailed, for the provider's word on it. Only an attempt without a provider payment id;
 * one with an id is only ever settled by the provider.
 */
export const closeUnknownInitiation = (ctx: CheckoutContext, attemptId: string) =>
  stepAside(ctx, attemptId, "initiation_unknown");

/**
 * Steps aside an attempt that never became a payment at the provider (no payment id, no status),
 * for `reason`: the checkout is open again, and no failed payment is recorded or told to the
 * merchant, as none was made.
 */
export async function stepAside(ctx: CheckoutContext, attemptId: string, reason: string): Promise<boolean> {
  return ctx.db.transaction(async (tx) => {
    const { checkout, attempt } = (await lockAttempt(tx, eq(paymentAttempts.id, attemptId))) ?? {};
    if (
      !checkout ||
      !attempt ||
      attempt.providerPaymentId !== null ||
      attempt.statusGroup !== null ||
      attempt.abandonedAt !== null
    )
      return false;
    await tx
      .update(paymentAttempts)
      .set({ abandonedAt: new Date(), failureReason: reason, updatedAt: new Date() })
      .where(eq(paymentAttempts.id, attemptId));
    await moveCheckout(tx, checkout, "open", "system", attemptId);
    return true;
  });
}

export async function failAttempt(ctx: CheckoutContext, attemptId: string, reason: string) {
  await ctx.db
    .update(paymentAttempts)
    .set({ failureReason: reason, updatedAt: new Date() })
    .where(eq(paymentAttempts.id, attemptId));
  await applyProviderStatus(
    ctx,
    { attemptId },
    { group: "failed", code: null, kind: "bank", errorCodes: [] },
    "initiation",
  );
}

/** What the provider keeps of our order on the payment (provider-api.md 4.2: at most 33 characters). */
export const endToEndIdOf = (checkout: { reference: string }) => checkout.reference.slice(0, 33);

/**
 * An initiation with no provider answer after this long is closed: a live request gives up on the
 * provider after the client's timeout (POSTs are never retried), so past that and a margin for
 * our own writes, the process that made it has died (a crash, a deploy) and the payer may retry.
 */
export const initiationTimeoutMs = (ctx: CheckoutContext) => ctx.config.pisTimeoutMs + 15_000;

export async function findByKey(ctx: CheckoutContext, checkoutId: string, attemptKey: string) {
  const [row] = await ctx.db
    .select()
    .from(paymentAttempts)
    .where(and(eq(paymentAttempts.checkoutId, checkoutId), eq(paymentAttempts.attemptKey, attemptKey)));
  return row;
}

/**
 * Answers a repeated submit with what the first one produced. While that one may still be waiting
 * on the provider, the answer waits for it; once it can no longer be alive (its instance died),
 * its attempt steps aside and the payer is told to try again, rather than to wait on nothing.
 */
export async function replay(ctx: CheckoutContext, attempt: AttemptRow): Promise<StartPaymentResponse> {
  const running = (r: AttemptRow) => r.confirmLink === null && r.statusGroup === null && r.abandonedAt === null;
  const aliveForMs = attempt.createdAt.getTime() + initiationTimeoutMs(ctx) - nowOf(ctx).getTime();
  let row: AttemptRow | undefined = running(attempt)
    ? await pollUntil(
        () => findByKey(ctx, attempt.checkoutId, attempt.attemptKey),
        (r) => !r || !running(r),
        Math.max(0, aliveForMs),
      )
    : attempt;
  if (row && running(row)) {
    // Read again whoever closed it: this request, or another instance's reconciler, or the start
    // itself answering at the last moment (each decides under the locks).
    await closeUnknownInitiation(ctx, row.id);
    row = await findByKey(ctx, row.checkoutId, row.attemptKey);
  }
  if (row?.confirmLink && row.statusGroup !== "failed" && row.abandonedAt === null)
    return { attemptId: row.id, confirmLink: row.confirmLink };
  if (row?.statusGroup === "failed" || row?.abandonedAt) {
    throw new CheckoutError("attempt_failed");
  }
  throw new CheckoutError("payment_in_progress", { detail: "It is still being started." });
}

/** The payment a refund gives money back from: the named one (paying or duplicate), else the paying one. */
export async function refundedAttempt(
  c: CheckoutContext,
  checkoutId: string,
  attemptId: string | undefined,
): Promise<AttemptRow> {
  const [attempt] = await c.db
    .select()
    .from(paymentAttempts)
    .where(
      and(
        eq(paymentAttempts.checkoutId, checkoutId),
        eq(paymentAttempts.statusGroup, "completed"),
        attemptId === undefined ? isNull(paymentAttempts.duplicateAt) : eq(paymentAttempts.id, attemptId),
      ),
    )
    .orderBy(asc(paymentAttempts.completedAt))
    .limit(1);
  if (!attempt?.providerPaymentId) {
    throw new CheckoutError("not_paid", {
      detail:
        attemptId === undefined
          ? "Only a paid checkout can be refunded."
          : "Only a completed payment of this checkout can be refunded.",
      errors:
        attemptId === undefined
          ? undefined
          : [{ path: "attemptId", message: "is not a completed payment of this checkout" }],
    });
  }
  return attempt;
}
