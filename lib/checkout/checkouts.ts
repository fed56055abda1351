import { asc, desc, eq } from "drizzle-orm";
import { z } from "zod";
import { createHash } from "node:crypto";
import { checkouts, idempotencyKeys, paymentAttempts, statusEvents } from "../db/schema";
import { failureReasonOf as paymentFailureReason, PisError } from "../pis";
import type { Db } from "../db/client";
import { applyProviderStatus, moveCheckout } from "./apply-status";
import { nowOf, type CheckoutContext, type Tx } from "./context";
import { CheckoutError, checkoutNotFound } from "./errors";
import { newCheckoutId } from "./ids";
import { isPrivateHost } from "./private-address";
import { amountProblem, normaliseAmount, SUPPORTED_CURRENCIES } from "./money";
import { isFinalCheckout, isFinalGroup } from "./status-machine";
import { LOCALES } from "./types";
import type { AttemptView, CheckoutDetail, CheckoutStatusView, CheckoutView, FailureReason } from "./contract";

const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);
// https everywhere except on the merchant's own machine, where a developer runs plain http.
const merchantUrl = z
  .url({ protocol: /^https?$/, error: "must be an absolute http(s) URL" })
  .max(2000)
  .refine((u) => {
    // Not a URL at all is already reported by z.url(); this check is only about the scheme.
    if (!URL.canParse(u)) return true;
    const url = new URL(u);
    return url.protocol !== "http:" || LOCAL_HOSTS.has(url.hostname);
  }, "must use https");

/** What a merchant sends to create a checkout. The amount is a decimal string in the currency's minor units. */
export const createCheckoutInput = z
  .object({
    amount: z.string(),
    currency: z.enum(SUPPORTED_CURRENCIES as [string, ...string[]]),
    description: z.string().trim().min(1).max(140),
    reference: z.string().trim().min(1).max(64),
    returnUrl: merchantUrl,
    notifyUrl: merchantUrl.optional(),
    locale: z.enum(LOCALES).optional(),
    country: z.string().regex(/^[A-Z]{2}$/, "must be an ISO 3166 alpha-2 code").optional(),
    email: z.email().optional(),
    // The merchant's id for its signed-in customer; offers saving a bank account (ADR 11).
    customerId: z.string().trim().min(1).max(128).regex(/^[\x21-\x7e]+$/, "must be printable ASCII without spaces").optional(),
    // Never beyond the provider's 7-day confirmLink, less an hour for a payer mid-payment.
    expiresInMinutes: z.number().int().min(1).max(7 * 24 * 60 - 60).optional(),
  })
  .superRefine((v, issue) => {
    const problem = amountProblem(v.amount, v.currency);
    if (problem) issue.addIssue({ code: "custom", path: ["amount"], message: problem });
  });
export type CreateCheckoutInput = z.input<typeof createCheckoutInput>;

type CheckoutRow = typeof checkouts.$inferSelect;
type AttemptRow = typeof paymentAttempts.$inferSelect;

export function toCheckoutView(row: CheckoutRow): CheckoutView {
  return {
    id: row.id,
    amount: row.amount,
    currency: row.currency,
    description: row.description,
    reference: row.reference,
    status: row.status,
    creditorName: row.creditorName,
    country: row.country,
    locale: row.locale,
    returnUrl: row.returnUrl,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
  };
}

export function toAttemptView(row: AttemptRow): AttemptView {
  return {
    id: row.id,
    method: row.method,
    bankId: row.bankId,
    statusGroup: row.statusGroup,
    providerStatus: row.providerStatus,
    abandoned: row.abandonedAt !== null,
    duplicate: row.duplicateAt !== null,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * Creates a checkout. With an idempotency key, a repeated request (a merchant retrying after a
 * timeout) returns the checkout the first one made; the same key with another body is refused.
 */
export async function createCheckout(input: CreateCheckoutInput, c: CheckoutContext, opts: { idempotencyKey?: string } = {}): Promise<CheckoutView> {
  const v = parseCreateInput(input, c.config.allowPrivateUrls);
  if (opts.idempotencyKey !== undefined) return createIdempotently(c, v, opts.idempotencyKey);
  return insertCheckout(c, c.db, v);
}

function parseCreateInput(input: CreateCheckoutInput, allowPrivateUrls: boolean) {
  const parsed = createCheckoutInput.safeParse(input);
  const errors = parsed.success ? [] : parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
  // Our server calls notifyUrl, and sends the payer's browser to returnUrl: neither may reach this
  // machine or the network behind it unless the operator says the merchant lives there.
  if (parsed.success && !allowPrivateUrls) {
    for (const field of ["returnUrl", "notifyUrl"] as const) {
      const url = parsed.data[field];
      if (url && isPrivateHost(new URL(url).hostname)) errors.push({ path: field, message: "must not point at localhost or a private network (ALLOW_PRIVATE_URLS)" });
    }
  }
  if (!parsed.success || errors.length > 0) throw new CheckoutError("invalid_request", { detail: "The checkout is not valid.", errors: errors });
  return parsed.data;
}

async function insertCheckout(c: CheckoutContext, db: Db | Tx, v: z.infer<typeof createCheckoutInput>): Promise<CheckoutView> {
  const now = nowOf(c);
  const [row] = await db
    .insert(checkouts)
    .values({
      id: newCheckoutId(),
      amount: normaliseAmount(v.amount, v.currency),
      currency: v.currency,
      description: v.description,
      reference: v.reference,
      returnUrl: v.returnUrl,
      notifyUrl: v.notifyUrl,
      locale: v.locale,
      country: v.country,
      email: v.email,
      customerId: v.customerId,
      creditorName: c.config.creditorName,
      creditorIban: c.config.creditorIban,
      createdAt: now,
      updatedAt: now,
      expiresAt: new Date(now.getTime() + (v.expiresInMinutes !== undefined ? v.expiresInMinutes * 60_000 : c.config.checkoutTtlMs)),
    })
    .returning();
  if (!row) throw new Error("insert returned no row");
  return toCheckoutView(row);
}

/**
 * A repeated request with the same key (a merchant retrying after a timeout) gets the checkout
 * the first one made; the same key with another body is refused. Checkout and key are written in
 * one transaction, so a race between two such requests leaves exactly one checkout.
 */
async function createIdempotently(c: CheckoutContext, v: z.infer<typeof createCheckoutInput>, key: string): Promise<CheckoutView> {
  if (!/^[\x21-\x7e]{1,255}$/.test(key)) {
    throw new CheckoutError("invalid_request", { detail: "The Idempotency-Key header is not valid.", errors: [
      { path: "Idempotency-Key", message: "must be 1-255 printable ASCII characters" },
    ] });
  }
  const requestHash = createHash("sha256").update(JSON.stringify(v)).digest("hex");
  const earlier = async () => {
    const [row] = await c.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key));
    if (!row) return undefined;
    if (row.requestHash !== requestHash) {
      throw new CheckoutError("idempotency_key_reused");
    }
    const checkout = await loadCheckout(c, row.checkoutId);
    if (!checkout) throw new Error(`idempotency key ${key} points at a missing checkout`);
    return toCheckoutView(checkout);
  };
  const found = await earlier();
  if (found) return found;
  try {
    return await c.db.transaction(async (tx) => {
      const created = await insertCheckout(c, tx, v);
      await tx.insert(idempotencyKeys).values({ key, requestHash, checkoutId: created.id });
      return created;
    });
  } catch (err) {
    const winner = await earlier();
    if (winner) return winner;
    throw err;
  }
}

export async function getCheckout(id: string, c: CheckoutContext): Promise<CheckoutView | null> {
  const row = await loadCheckout(c, id);
  return row ? toCheckoutView(row) : null;
}

export async function loadCheckout(ctx: CheckoutContext, id: string): Promise<CheckoutRow | undefined> {
  if (!/^co_[A-Za-z0-9_-]{20,40}$/.test(id)) return undefined;
  const [row] = await ctx.db.select().from(checkouts).where(eq(checkouts.id, id));
  return row;
}

export async function latestAttempt(ctx: CheckoutContext, checkoutId: string): Promise<AttemptRow | undefined> {
  const [row] = await ctx.db
    .select()
    .from(paymentAttempts)
    .where(eq(paymentAttempts.checkoutId, checkoutId))
    .orderBy(desc(paymentAttempts.createdAt))
    .limit(1);
  return row;
}

/**
 * The status the landing page shows. While the latest attempt is not final, asks the provider
 * first: the redirect's query string is never trusted, and the webhook may not have come yet.
 * `askProvider: false` answers from what is stored (a page render that cannot wait for the provider).
 */
export async function getCheckoutStatus(id: string, c: CheckoutContext, opts: { askProvider?: boolean } = {}): Promise<CheckoutStatusView> {
  let checkout = await loadCheckout(c, id);
  if (!checkout) throw checkoutNotFound();

  let attempt = await latestAttempt(c, id);
  const now = nowOf(c);
  // Many tabs may poll one checkout: ask the provider at most once per REFRESH_MIN_MS.
  const recentlyChecked = attempt?.checkedAt && now.getTime() - attempt.checkedAt.getTime() < REFRESH_MIN_MS;
  if (opts.askProvider !== false && attempt?.providerPaymentId && !isFinalGroup(attempt.statusGroup) && !recentlyChecked) {
    try {
      await c.db.update(paymentAttempts).set({ checkedAt: now }).where(eq(paymentAttempts.id, attempt.id));
      const status = await c.pis.payments.status(attempt.providerPaymentId);
      const outcome = await applyProviderStatus(c, { attemptId: attempt.id }, status, "landing");
      if (outcome === "applied") {
        checkout = (await loadCheckout(c, id)) ?? checkout;
        attempt = await latestAttempt(c, id);
      }
    } catch (err) {
      // The provider being unreachable must not break the page: show what we know and poll again.
      if (!(err instanceof PisError)) throw err;
    }
  }
  checkout = await expireIfDue(c, checkout);
  return {
    id: checkout.id,
    status: checkout.status,
    final: isFinalCheckout(checkout.status),
    amount: checkout.amount,
    currency: checkout.currency,
    returnUrl: checkout.returnUrl,
    attempt: attempt ? toAttemptView(attempt) : null,
    failureReason: attempt && (checkout.status === "failed" || attempt.statusGroup === "failed") ? failureReasonOf(attempt) : null,
  };
}

const REFRESH_MIN_MS = 2000;

/**
 * Expires an open or failed checkout past its time as soon as anyone looks at it, so the payer
 * never sees a payable page for an expired order while waiting for the worker's next round.
 */
export async function expireIfDue(ctx: CheckoutContext, checkout: CheckoutRow): Promise<CheckoutRow> {
  if ((checkout.status !== "open" && checkout.status !== "failed") || checkout.expiresAt > nowOf(ctx)) return checkout;
  const moved = await ctx.db.transaction(async (tx) => {
    const [row] = await tx.select().from(checkouts).where(eq(checkouts.id, checkout.id)).for("update");
    return row ? moveCheckout(tx, row, "expired", "system") : false;
  });
  return moved ? { ...checkout, status: "expired" } : ((await loadCheckout(ctx, checkout.id)) ?? checkout);
}

/** Why the attempt failed, for the payer: lib/pis reads the provider's codes; a start that never reached the bank is ours. */
export function failureReasonOf(a: Pick<AttemptRow, "errorCodes" | "providerStatus" | "failureReason">): FailureReason {
  const reason = paymentFailureReason({ code: a.providerStatus, errorCodes: a.errorCodes ?? [] });
  return reason === "unknown" && a.failureReason ? "provider_error" : reason;
}

/** The merchant's view: the checkout with all its attempts, newest first. */
export async function getCheckoutDetail(id: string, c: CheckoutContext): Promise<CheckoutDetail> {
  const checkout = await loadCheckout(c, id);
  if (!checkout) throw checkoutNotFound();
  const attempts = await c.db
    .select()
    .from(paymentAttempts)
    .where(eq(paymentAttempts.checkoutId, id))
    .orderBy(desc(paymentAttempts.createdAt));
  const history = await c.db.select().from(statusEvents).where(eq(statusEvents.checkoutId, id)).orderBy(asc(statusEvents.id));
  return {
    ...toCheckoutView(checkout),
    customerId: checkout.customerId,
    attempts: attempts.map(toAttemptView),
    // Each change of the checkout's status and what caused it (webhook, landing page check, ...).
    timeline: history.filter((e) => e.fromStatus !== e.toStatus).map((e) => ({ at: e.createdAt.toISOString(), from: e.fromStatus, to: e.toStatus, source: e.source })),
  };
}
