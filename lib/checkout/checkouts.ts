import { desc, eq } from "drizzle-orm";
import { z } from "zod";
import { checkouts, paymentAttempts } from "../db/schema";
import { PisError } from "../pis";
import { applyProviderStatus, moveCheckout } from "./apply-status";
import { nowOf, type CheckoutContext } from "./context";
import { CheckoutError } from "./errors";
import { newCheckoutId } from "./ids";
import { amountProblem, normaliseAmount, SUPPORTED_CURRENCIES } from "./money";
import { isFinalCheckout, isFinalGroup } from "./status-machine";
import type { AttemptView, CheckoutStatusView, CheckoutView } from "./types";

const httpUrl = z.url({ protocol: /^https?$/, error: "must be an absolute http(s) URL" });

/** What a merchant sends to create a checkout. The amount is a decimal string in the currency's minor units. */
export const createCheckoutInput = z
  .object({
    amount: z.string(),
    currency: z.enum(SUPPORTED_CURRENCIES as [string, ...string[]]),
    description: z.string().trim().min(1).max(140),
    reference: z.string().trim().min(1).max(64),
    returnUrl: httpUrl,
    notifyUrl: httpUrl.optional(),
    locale: z.enum(["en", "lt", "lv", "et"]).optional(),
    country: z.string().regex(/^[A-Z]{2}$/, "must be an ISO 3166 alpha-2 code").optional(),
    email: z.email().optional(),
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
    createdAt: row.createdAt.toISOString(),
  };
}

export async function createCheckout(input: CreateCheckoutInput, ctx?: CheckoutContext): Promise<CheckoutView> {
  const c = ctx ?? (await defaultContext());
  const parsed = createCheckoutInput.safeParse(input);
  if (!parsed.success) {
    throw new CheckoutError(400, "invalid_request", "The checkout is not valid.", undefined,
      parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message })));
  }
  const v = parsed.data;
  const now = nowOf(c);
  const [row] = await c.db
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
      creditorName: c.config.creditorName,
      creditorIban: c.config.creditorIban,
      createdAt: now,
      updatedAt: now,
      expiresAt: new Date(now.getTime() + c.config.checkoutTtlMs),
    })
    .returning();
  if (!row) throw new Error("insert returned no row");
  return toCheckoutView(row);
}

export async function getCheckout(id: string, ctx?: CheckoutContext): Promise<CheckoutView | null> {
  const c = ctx ?? (await defaultContext());
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
 */
export async function getCheckoutStatus(id: string, ctx?: CheckoutContext): Promise<CheckoutStatusView> {
  const c = ctx ?? (await defaultContext());
  let checkout = await loadCheckout(c, id);
  if (!checkout) throw new CheckoutError(404, "checkout_not_found", "This checkout does not exist.");

  let attempt = await latestAttempt(c, id);
  if (attempt?.providerPaymentId && !isFinalGroup(attempt.statusGroup)) {
    try {
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
  if (checkout.status === "open" && checkout.expiresAt <= nowOf(c)) {
    await c.db.transaction((tx) => moveCheckout(tx, checkout!, "expired", "system"));
    checkout = { ...checkout, status: "expired" };
  }
  return {
    id: checkout.id,
    status: checkout.status,
    final: isFinalCheckout(checkout.status),
    amount: checkout.amount,
    currency: checkout.currency,
    returnUrl: checkout.returnUrl,
    attempt: attempt ? toAttemptView(attempt) : null,
  };
}

export async function defaultContext(): Promise<CheckoutContext> {
  // Imported lazily so tests that pass their own context never read the process settings.
  const { appContext } = await import("./app-context");
  return appContext();
}

/** The merchant's view: the checkout with all its attempts, newest first. */
export async function getCheckoutDetail(id: string, ctx?: CheckoutContext) {
  const c = ctx ?? (await defaultContext());
  const checkout = await loadCheckout(c, id);
  if (!checkout) throw new CheckoutError(404, "checkout_not_found", "This checkout does not exist.");
  const attempts = await c.db
    .select()
    .from(paymentAttempts)
    .where(eq(paymentAttempts.checkoutId, id))
    .orderBy(desc(paymentAttempts.createdAt));
  return { ...toCheckoutView(checkout), attempts: attempts.map(toAttemptView) };
}
