import { and, eq, inArray, isNull } from "drizzle-orm";
import { z } from "zod";
import { isUniqueViolation } from "../db/raw";
import { checkouts, paymentAttempts } from "../db/schema";
import { PisError } from "../pis";
import { applyProviderStatus, lockAttempt, moveCheckout } from "./apply-status";
import { loadCheckout } from "./checkouts";
import { isProviderLink, returnUrl, webhookUrl, type CheckoutContext } from "./context";
import { CheckoutError, termsRequired, unknownBank, checkoutNotFound } from "./errors";
import { bankIdInput, newAttemptId } from "./ids";
import { toMinor } from "./money";
import { pollUntil } from "./poll";
import { findBank, projectInfo, redirectPreferredFor } from "./project";
import { accessTokenOf, assertPayable, completeLinking, type linkReturnQuery, markLinkRevoked, markLinkUsed, SavedAccountEndedError, savedAccountForPayment } from "./saved-accounts";
import { LOCALES } from "./types";
import type { StartPaymentResponse } from "./contract";

/** What the payer's browser may send. Note what is absent: amount, currency, creditor, redirect. */
export const startPaymentInput = z
  .object({
    method: z.enum(["bank", "card", "hybrid"]),
    bankId: bankIdInput.optional(),
    country: z.string().regex(/^[A-Z]{2}$/, "must be an ISO 3166 alpha-2 code").optional(),
    termsAccepted: z.boolean(),
    attemptKey: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, "must be 8-64 URL-safe characters"),
    lang: z.enum(LOCALES).optional(),
    /** Pay from the customer's saved bank account in this browser (one click; ADR 11). */
    savedAccount: z.literal(true).optional(),
  })
  .refine((v) => v.method === "bank" || v.bankId === undefined, { path: ["bankId"], message: "is only for bank payments" })
  .refine((v) => !v.savedAccount || (v.method === "bank" && v.bankId === undefined), {
    path: ["savedAccount"],
    message: "is a bank payment from the saved account's bank, without bankId",
  });
export type StartPaymentInput = z.infer<typeof startPaymentInput>;

type AttemptRow = typeof paymentAttempts.$inferSelect;

const SAME_KEY_WAIT_MS = 15_000;

/**
 * Starts a payment at the provider for one checkout. The attempt row is written first, so a crash
 * after the provider call leaves a trace; the attempt key makes a repeated submit (double click,
 * retry after a lost response) return the same attempt instead of a second payment. `payerHandle`
 * is the browser's handle (cookie), needed only to pay from a saved account.
 */
export async function startPayment(checkoutId: string, input: StartPaymentInput, c: CheckoutContext, payerHandle?: string): Promise<StartPaymentResponse> {
  const checkout = await loadCheckout(c, checkoutId);
  if (!checkout) throw checkoutNotFound();

  // Client-side bank selection obliges us to show and require the provider's terms.
  if (input.bankId && !input.termsAccepted) throw termsRequired();

  const existing = await findByKey(c, checkoutId, input.attemptKey);
  if (existing) return replay(c, existing);

  const project = await projectInfo(c);
  if (!project.methods[input.method]) {
    throw new CheckoutError("method_unavailable", { detail: "This payment method is not available for this shop.", errors: [
      { path: "method", message: `${input.method} payments are not enabled` },
    ] });
  }
  assertPayable(c, checkout);
  // A saved account: its bank, and a token refreshed before the attempt is written.
  const link = input.savedAccount ? await savedAccountForPayment(c, checkout, payerHandle) : undefined;
  const accessToken = link ? await accessTokenOf(c, link).catch(savedAccountEnded) : undefined;
  const bankId = link?.bankId ?? input.bankId;

  let redirectPreferred: boolean | undefined;
  if (input.bankId) {
    const bank = await findBank(c, input.bankId).catch(() => undefined);
    if (bank === null) throw unknownBank();
    // A provider outage here is left to the initiation call, which will report it.
    if (bank) redirectPreferred = redirectPreferredFor(project, bank);
  }

  const attemptId = newAttemptId();
  const inserted = await c.db
    .transaction(async (tx) => {
      // Locked first, then re-checked: a late webhook may have paid the checkout since we loaded it.
      const [fresh] = await tx.select().from(checkouts).where(eq(checkouts.id, checkoutId)).for("update");
      if (!fresh || fresh.status === "paid") throw new CheckoutError("already_paid");
      await tx.insert(paymentAttempts).values({
        id: attemptId,
        checkoutId,
        attemptKey: input.attemptKey,
        method: input.method,
        bankId: bankId ?? null,
      });
      await moveCheckout(tx, fresh, "processing", "initiation", attemptId);
      return true;
    })
    .catch((err: unknown) => {
      if (isUniqueViolation(err)) return false;
      throw err;
    });
  if (!inserted) {
    // Either the same key raced us (a double click) or another attempt is still in flight.
    const raced = await findByKey(c, checkoutId, input.attemptKey);
    if (raced) return replay(c, raced);
    throw new CheckoutError("payment_in_progress", { detail: "Finish it at your bank, or wait for its result." });
  }

  try {
    const res = await c.pis.payments.initiate({
      amount: checkout.amount,
      currencyCode: checkout.currency,
      description: checkout.description,
      endToEndId: endToEndIdOf(checkout),
      creditorName: checkout.creditorName,
      creditorIban: checkout.creditorIban,
      email: checkout.email ?? undefined,
      method: input.method,
      bankId,
      redirectPreferred,
      countryCode: bankId ? undefined : input.country,
      accessToken,
      lang: input.lang,
      redirectUrl: returnUrl(c, checkoutId, attemptId),
      webhookUrl: webhookUrl(c, attemptId),
    });
    const confirmLink = res.confirmLink;
    if (!confirmLink || !isProviderLink(c, confirmLink)) {
      // A confirmLink elsewhere is not followed; the provider payment is left to expire unconfirmed.
      await failAttempt(c, attemptId, "untrusted_confirm_link");
      throw new CheckoutError("provider_error", { detail: "The payment service gave an unexpected answer." });
    }
    // The provider's payment id and its first status in one write: no crash can leave one without the other.
    await applyProviderStatus(c, { attemptId, bind: { providerPaymentId: res.id, confirmLink } }, res.status, "initiation");
    if (link) await markLinkUsed(c, link.id);
    return { attemptId, confirmLink };
  } catch (err) {
    if (!(err instanceof PisError)) throw err;
    if (err.outcomeUnknown) {
      // The provider may have made the payment without us hearing of it. The payer never got its
      // confirmLink, so the attempt steps aside (the payer may pay again) but is not failed: if it
      // completes after all, its webhook finds it by the attempt id in the Webhook-URL.
      await closeUnknownInitiation(c, attemptId);
      throw new CheckoutError("provider_error", { detail: "We could not reach the payment service." });
    }
    if (link && err.httpStatus === 401) {
      // A token refreshed moments ago and still refused: the payer withdrew the consent at the bank.
      await failAttempt(c, attemptId, "saved_account_refused");
      await markLinkRevoked(c, link.id);
      savedAccountEnded(new SavedAccountEndedError("revoked"));
    }
    // The provider answered with a refusal: no payment exists, so the attempt has failed.
    await failAttempt(c, attemptId, err.kind === "http" ? `provider_${err.httpStatus}_${err.providerName ?? err.code ?? "error"}` : `provider_${err.kind}`);
    throw new CheckoutError("provider_error", { detail: "The payment service could not start this payment." });
  }
}

/** The landing page's query as the provider sends the payer back (provider-api.md 8); all untrusted. */
export const returnQuery = z.object({
  attempt: z.string().regex(/^pa_[0-9a-f-]{36}$/).optional(),
  paymentId: z.string().regex(/^[A-Za-z0-9-]{1,64}$/).optional(),
});

/** What the provider keeps of our order on the payment (provider-api.md 4.2: at most 33 characters). */
const endToEndIdOf = (checkout: { reference: string }) => checkout.reference.slice(0, 33);

/**
 * Steps an attempt aside whose initiation has no known outcome (the provider's answer was lost, or
 * the instance making it died): the checkout is open again so the payer can retry, and the attempt
 * waits, unfailed, for the provider's word on it. Only an attempt without a provider payment id;
 * one with an id is only ever settled by the provider.
 */
export async function closeUnknownInitiation(ctx: CheckoutContext, attemptId: string): Promise<boolean> {
  return ctx.db.transaction(async (tx) => {
    const { checkout, attempt } = (await lockAttempt(tx, eq(paymentAttempts.id, attemptId))) ?? {};
    if (!checkout || !attempt || attempt.providerPaymentId !== null || attempt.statusGroup !== null || attempt.abandonedAt !== null) return false;
    await tx
      .update(paymentAttempts)
      .set({ abandonedAt: new Date(), failureReason: "initiation_unknown", updatedAt: new Date() })
      .where(eq(paymentAttempts.id, attemptId));
    await moveCheckout(tx, checkout, "open", "system", attemptId);
    return true;
  });
}

/**
 * The payer is back on our landing page with the provider's payment id in the query, for an
 * attempt whose initiation we never finished recording. The query is the payer's to change, so
 * the payment is read from the provider and adopted only if it is this checkout's order.
 */
export async function adoptReturnedPayment(ctx: CheckoutContext, checkoutId: string, attemptId: string, providerPaymentId: string): Promise<boolean> {
  const [attempt] = await ctx.db
    .select()
    .from(paymentAttempts)
    .where(and(eq(paymentAttempts.id, attemptId), eq(paymentAttempts.checkoutId, checkoutId)));
  if (!attempt || attempt.providerPaymentId !== null) return false;
  const checkout = await loadCheckout(ctx, checkoutId);
  if (!checkout) return false;
  let payment;
  try {
    payment = await ctx.pis.payments.get(providerPaymentId);
  } catch (err) {
    if (err instanceof PisError) return false;
    throw err;
  }
  const method = payment.bankPaymentMethod;
  const ours =
    sameAmount(payment.amount, checkout.amount, checkout.currency) &&
    payment.currencyCode === checkout.currency &&
    (method === undefined || method === null || (method.endToEndId === endToEndIdOf(checkout) && method.creditorAccount?.iban === checkout.creditorIban));
  if (!ours) return false;
  const outcome = await applyProviderStatus(ctx, { attemptId, bind: { providerPaymentId } }, payment.status, "landing").catch((err: unknown) => {
    // The payment is already another attempt's: nothing to adopt.
    if (isUniqueViolation(err)) return "unknown_attempt" as const;
    throw err;
  });
  return outcome === "applied";
}

function sameAmount(a: string | number, b: string, currency: string): boolean {
  try {
    return toMinor(String(a), currency) === toMinor(b, currency);
  } catch {
    return false;
  }
}

/**
 * The payer came back from the bank without authorising and wants to pay another way. Allowed
 * only while the provider still reports the payment as merely started; the old payment is kept
 * (not failed), so if the payer does authorise it later in a forgotten tab, the money is seen.
 */
export async function abandonPayment(checkoutId: string, c: CheckoutContext): Promise<{ abandoned: true }> {
  const checkout = await loadCheckout(c, checkoutId);
  if (!checkout) throw checkoutNotFound();
  const [attempt] = await c.db
    .select()
    .from(paymentAttempts)
    .where(and(eq(paymentAttempts.checkoutId, checkoutId), isNull(paymentAttempts.abandonedAt), inArray(paymentAttempts.statusGroup, ["started", "pending"])));
  if (!attempt) return { abandoned: true };
  if (!attempt.providerPaymentId) throw new CheckoutError("payment_in_progress", { detail: "It is still being started." });

  let status;
  try {
    status = await c.pis.payments.status(attempt.providerPaymentId);
  } catch (err) {
    if (!(err instanceof PisError)) throw err;
    throw new CheckoutError("provider_error", { detail: "We could not check your payment with the bank." });
  }
  await applyProviderStatus(c, { attemptId: attempt.id }, status, "payer");
  const authorised = () => new CheckoutError("payment_authorised", { detail: "Wait for its result instead of paying again." });
  if (status.group !== "started") throw authorised();
  await c.db.transaction(async (tx) => {
    // Checked again under the locks (checkout, then attempt): a webhook may have moved the payment
    // since the provider was asked, and the payer must not be let to pay twice.
    const { checkout: row, attempt: fresh } = (await lockAttempt(tx, eq(paymentAttempts.id, attempt.id))) ?? {};
    if (!row || !fresh || fresh.abandonedAt !== null) return;
    if (fresh.statusGroup !== "started") throw authorised();
    await tx.update(paymentAttempts).set({ abandonedAt: new Date(), updatedAt: new Date() }).where(eq(paymentAttempts.id, attempt.id));
    await moveCheckout(tx, row, "open", "payer", attempt.id);
  });
  return { abandoned: true };
}

/**
 * Where the payer goes after the provider's account linking: straight on to the payment from the
 * new saved account (the Pay click that started the linking), or back to the checkout page with
 * the outcome when the linking failed or this browser is not the one that started it.
 */
export async function continueAfterLinking(checkoutId: string, query: z.infer<typeof linkReturnQuery>, payerHandle: string | undefined, c: CheckoutContext): Promise<string> {
  const page = (saved: string) => `${c.config.appUrl}/checkout/${encodeURIComponent(checkoutId)}?saved=${saved}${query.lang ? `&lang=${query.lang}` : ""}`;
  const { outcome, ownBrowser } = await completeLinking(checkoutId, query, payerHandle, c);
  if (outcome !== "linked") return page(outcome);
  if (!ownBrowser) return page("elsewhere");
  try {
    // One attempt per linking (the request id named a real link): a reload gets the same payment.
    const attemptKey = `linked-${query.requestId}`;
    const { confirmLink } = await startPayment(checkoutId, { method: "bank", termsAccepted: true, attemptKey, savedAccount: true, lang: query.lang }, c, payerHandle);
    return confirmLink;
  } catch (err) {
    // Paid meanwhile, expired, provider down: the checkout page shows where things stand.
    if (err instanceof CheckoutError) return page("linked");
    throw err;
  }
}

/** A saved account that can no longer pay becomes a refusal the page explains (link again). */
function savedAccountEnded(err: unknown): never {
  if (err instanceof SavedAccountEndedError) {
    throw new CheckoutError("saved_account_ended", { detail: "Choose your bank and save it again." });
  }
  if (err instanceof PisError) throw new CheckoutError("provider_error", { detail: "We could not reach the payment service." });
  throw err;
}

async function findByKey(ctx: CheckoutContext, checkoutId: string, attemptKey: string) {
  const [row] = await ctx.db
    .select()
    .from(paymentAttempts)
    .where(and(eq(paymentAttempts.checkoutId, checkoutId), eq(paymentAttempts.attemptKey, attemptKey)));
  return row;
}

/** Answers a repeated submit with what the first one produced, waiting briefly if it is still running. */
async function replay(ctx: CheckoutContext, attempt: AttemptRow): Promise<StartPaymentResponse> {
  const running = (r: AttemptRow | undefined) => r !== undefined && r.confirmLink === null && r.statusGroup === null;
  const row = running(attempt)
    ? await pollUntil(() => findByKey(ctx, attempt.checkoutId, attempt.attemptKey), (r) => !running(r), SAME_KEY_WAIT_MS)
    : attempt;
  if (row?.confirmLink && row.statusGroup !== "failed" && row.abandonedAt === null) return { attemptId: row.id, confirmLink: row.confirmLink };
  if (row?.statusGroup === "failed" || row?.abandonedAt) {
    throw new CheckoutError("attempt_failed");
  }
  throw new CheckoutError("payment_in_progress", { detail: "It is still being started." });
}

export async function failAttempt(ctx: CheckoutContext, attemptId: string, reason: string) {
  await ctx.db.update(paymentAttempts).set({ failureReason: reason, updatedAt: new Date() }).where(eq(paymentAttempts.id, attemptId));
  await applyProviderStatus(ctx, { attemptId }, { group: "failed", code: null, kind: "bank", errorCodes: [] }, "initiation");
}
