import { and, eq, sql, type SQLWrapper } from "drizzle-orm";
import type { Db } from "../db/client";
import { prepared } from "../db/prepared";
import { z } from "zod";
import { isUniqueViolation } from "../db/raw";
import { countedKeys, countingHits, enforceAll, verdictsOf, type Counted, type Hit } from "../http/rate-limit";
import { checkouts, paymentAttempts, type AttemptRow, type CheckoutRow, type LinkRow } from "../db/schema";
import { PisError } from "../pis";
import { applyProviderStatus, checkoutMove, type SeenAttempt } from "./apply-status";
import { assertPayable, loadCheckout } from "./checkouts";
import { writeIfUnchanged } from "./guarded-write";
import { isProviderLink, returnUrl, webhookUrl, type CheckoutContext } from "./context";
import { CheckoutError, termsRequired, unknownBank, checkoutNotFound } from "./errors";
import { bankIdInput, isCheckoutId, newAttemptId } from "./ids";
import { findBank, projectInfo, projectInfoOrBankOnly, redirectPreferredFor } from "./project";
import { LOCALES } from "./types";
import type { StartPaymentResponse } from "./contract";
import { markLinkUsed, markLinkRevoked, SavedAccountEndedError } from "./saved-accounts/links";
import { savedAccountForPayment } from "./saved-accounts/paying";
import { accessTokenOf, refreshedAccessToken } from "./saved-accounts/tokens";
import { endToEndIdOf, failAttempt, closeUnknownInitiation, replay, findByKey, stepAside } from "./attempts";
import { takeBackAuthorised } from "./payments";

/** What the payer's browser may send. Note what is absent: amount, currency, creditor, redirect. */
export const startPaymentInput = z
  .object({
    method: z.enum(["bank", "card", "hybrid"]),
    bankId: bankIdInput.optional(),
    country: z
      .string()
      .regex(/^[A-Z]{2}$/, "must be an ISO 3166 alpha-2 code")
      .optional(),
    termsAccepted: z.boolean(),
    attemptKey: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, "must be 8-64 URL-safe characters"),
    lang: z.enum(LOCALES).optional(),
    /** Pay from the customer's saved bank account in this browser (one click; ADR 11). */
    savedAccount: z.literal(true).optional(),
  })
  .refine((v) => v.method === "bank" || v.bankId === undefined, {
    path: ["bankId"],
    message: "is only for bank payments",
  })
  .refine((v) => !v.savedAccount || (v.method === "bank" && v.bankId === undefined), {
    path: ["savedAccount"],
    message: "is a bank payment from the saved account's bank, without bankId",
  });

export type StartPaymentInput = z.infer<typeof startPaymentInput>;

/**
 * Starts a payment at the provider for one checkout. The attempt row is written first, so a crash
 * after the provider call leaves a trace; the attempt key makes a repeated submit (double click,
 * retry after a lost response) return the same attempt instead of a second payment. `payerHandle`
 * is the browser's handle (cookie), needed only to pay from a saved account.
 */
export async function startPayment(
  checkoutId: string,
  input: StartPaymentInput,
  c: CheckoutContext,
  payerHandle?: string,
  /** Rate-limit hits to count (and enforce) in the same statement as the checkout's read. */
  limits: Hit[] = [],
): Promise<StartPaymentResponse> {
  const { checkout, existing } = await checkoutWithAttempt(c, checkoutId, input.attemptKey, limits);
  if (!checkout) throw checkoutNotFound();

  // Client-side bank selection obliges us to show and require the provider's terms.
  if (input.bankId && !input.termsAccepted) throw termsRequired();

  if (existing) return replay(c, existing);

  // A bank payment goes ahead while the project cannot be read (its own call reports an outage).
  const project = input.method === "bank" ? await projectInfoOrBankOnly(c) : await projectInfo(c);
  if (!project.methods[input.method]) {
    throw new CheckoutError("method_unavailable", {
      detail: "This payment method is not available for this shop.",
      errors: [{ path: "method", message: `${input.method} payments are not enabled` }],
    });
  }
  assertPayable(c, checkout);
  // A checkout that had a payment may have one the payer stopped and then approved: it is asked
  // about first, and if taken back, the attempt below is refused as in progress. A new checkout
  // (version 0) has none, and pays no round trip for it.
  if (checkout.version > 0) await takeBackAuthorised(c, checkoutId, "initiation");
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
  const inserted = await insertAttempt(c, checkout, {
    id: attemptId,
    checkoutId,
    attemptKey: input.attemptKey,
    method: input.method,
    bankId: bankId ?? null,
  }).catch((err: unknown) => {
    if (isUniqueViolation(err)) return null;
    throw err;
  });
  if (!inserted) {
    // Either the same key raced us (a double click) or another attempt is still in flight.
    const raced = await findByKey(c, checkoutId, input.attemptKey);
    if (raced) return replay(c, raced);
    throw new CheckoutError("payment_in_progress", { detail: "Finish it at your bank, or wait for its result." });
  }

  const pay = (token: string | undefined) =>
    c.pis.payments.initiate({
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
      accessToken: token,
      lang: input.lang,
      redirectUrl: returnUrl(c, checkoutId, attemptId),
      webhookUrl: webhookUrl(c, attemptId),
    });

  try {
    const res = await pay(accessToken).catch(async (err: unknown) => {
      if (!link || !(err instanceof PisError) || err.httpStatus !== 401) throw err;
      // A 401 is a definite refusal: the provider made no payment, so paying again under this
      // attempt cannot make a second one. Our stored expiry is only our guess at the provider's,
      // so a refreshed token decides whether the consent is gone (ADR 11).
      return pay(await renewedToken(c, link, attemptId));
    });
    const confirmLink = res.confirmLink;
    if (!confirmLink || !isProviderLink(c, confirmLink)) {
      // No link, or one elsewhere (not followed): the payer cannot confirm here and may pay again.
      // The attempt steps aside unfailed, not failed: a saved account's payment may go ahead
      // without confirmation (provider-api.md 4.2, 4.7), and its webhook finds it by the attempt id.
      await stepAside(c, attemptId, "untrusted_confirm_link");
      throw new CheckoutError("provider_error", { detail: "The payment service gave an unexpected answer." });
    }
    // The provider's payment id and its first status in one write: no crash can leave one without the other.
    await applyProviderStatus(
      c,
      { attemptId, bind: { providerPaymentId: res.id, confirmLink } },
      res.status,
      "initiation",
      inserted,
    );
    if (link) await markLinkUsed(c, link.id);
    return { attemptId, confirmLink };
  } catch (err) {
    if (!(err instanceof PisError)) throw err;
    if (err.outcomeUnknown) {
      // The provider may have made the payment without us hearing of it (no answer, or a 200 we
      // could not read: with a saved account it needs no confirmation to go ahead). The payer never got its
      // confirmLink, so the attempt steps aside (the payer may pay again) but is not failed: if it
      // completes after all, its webhook finds it by the attempt id in the Webhook-URL.
      await closeUnknownInitiation(c, attemptId);
      throw new CheckoutError("provider_error", { detail: "We could not reach the payment service." }, { cause: err });
    }
    if (link && err.httpStatus === 401) {
      // Refused again with a token refreshed just now: the payer withdrew the consent at the bank.
      // No payment was made, so none failed: the payer chooses a bank on the page instead.
      await stepAside(c, attemptId, "saved_account_refused");
      await markLinkRevoked(c, link.id);
      savedAccountEnded(new SavedAccountEndedError("revoked"));
    }
    // The provider answered with a refusal: no payment exists, so the attempt has failed.
    await failAttempt(
      c,
      attemptId,
      err.kind === "http"
        ? `provider_${err.httpStatus}_${err.providerName ?? err.code ?? "error"}`
        : `provider_${err.kind}`,
    );
    if (err.kind === "http")
      throw new CheckoutError(
        "payment_refused",
        { detail: "The payment service refused this payment." },
        { cause: err },
      );
    // A request this API version cannot make: refused before it was sent, not by the provider.
    throw new CheckoutError(
      "provider_error",
      { detail: "The payment service could not start this payment." },
      { cause: err },
    );
  }
}

/**
 * Writes the new attempt and moves the checkout to processing in one statement, only while the
 * checkout is as read; otherwise it is read again: a late webhook may have paid it since. Answers
 * the attempt and its checkout as written, which the provider's answer is then applied to.
 */
async function insertAttempt(
  c: CheckoutContext,
  read: CheckoutRow,
  fields: Pick<AttemptRow, "id" | "checkoutId" | "attemptKey" | "method" | "bankId">,
): Promise<SeenAttempt> {
  for (let checkout: CheckoutRow | undefined = read; checkout; checkout = await loadCheckout(c, read.id)) {
    // Read again after a lost race: it may have been paid, cancelled or expired since.
    assertPayable(c, checkout);
    const move = checkoutMove(checkout, "processing", "initiation", fields.id);
    if (await writeIfUnchanged(c.db, { checkout, attemptInsert: fields, ...move })) {
      const written = { ...checkout, version: checkout.version + 1, status: move?.moveTo ?? checkout.status };
      // The newest attempt, and no other may be in flight or paid (the unique indexes and the status above).
      return {
        checkout: written,
        attempt: { ...NEW_ATTEMPT, ...fields },
        currentAttemptId: fields.id,
        paidByAnother: false,
      };
    }
  }
  throw checkoutNotFound();
}

/** What a new attempt's other columns hold before the provider answers. */
const NEW_ATTEMPT = {
  providerPaymentId: null,
  statusGroup: null,
  providerStatus: null,
  providerStatusKind: null,
  errorCodes: null,
  failureReason: null,
  confirmLink: null,
  abandonedAt: null,
  checkedAt: null,
  nextCheckAt: null,
  completedAt: null,
  duplicateAt: null,
} satisfies Omit<AttemptRow, "id" | "checkoutId" | "attemptKey" | "method" | "bankId" | "createdAt" | "updatedAt">;

/**
 * The checkout and the attempt this attempt key already made, if any, in one query; with `limits`,
 * the same statement counts them, and a refusal is thrown before anything else happens.
 */
async function checkoutWithAttempt(c: CheckoutContext, checkoutId: string, attemptKey: string, limits: Hit[]) {
  if (!isCheckoutId(checkoutId)) return {};
  if (limits.length === 0) {
    const [row] = await checkoutAndKey(c.db).execute({ checkoutId, attemptKey });
    return { checkout: row?.checkout, existing: row?.attempt ?? undefined };
  }
  const now = new Date();
  const keys = Object.fromEntries(
    countedKeys(limits, now).flatMap((k, i) => [
      [`key${i}`, k.key],
      [`ends${i}`, k.windowEnds],
    ]),
  );
  const [row] = await checkoutAndKeyCounting(limits.length)(c.db).execute({ checkoutId, attemptKey, now, ...keys });
  // An unknown checkout's hits are counted (the address's among them) and it is answered 404.
  if (row) enforceAll(verdictsOf(limits, row.counted, now));
  return { checkout: row?.checkout, existing: row?.attempt ?? undefined };
}

/**
 * The checkout's attempt with this attempt key (a value, or a prepared statement's placeholder):
 * of the checkout joined to, or of the one named.
 */
const keyedAttempt = (attemptKey: string | SQLWrapper, checkoutId: string | SQLWrapper = checkouts.id) =>
  and(eq(paymentAttempts.checkoutId, checkoutId), eq(paymentAttempts.attemptKey, attemptKey));

const checkoutAndKey = prepared((db) =>
  db
    .select({ checkout: checkouts, attempt: paymentAttempts })
    .from(checkouts)
    .leftJoin(paymentAttempts, keyedAttempt(sql.placeholder("attemptKey")))
    .where(eq(checkouts.id, sql.placeholder("checkoutId")))
    .prepare("checkout_and_attempt_key"),
);

/**
 * checkoutAndKey, counting `n` rate-limit hits in the same statement (placeholders `now`, and
 * `key0`, `ends0`... for each): prepared once per number of hits, like the statement without them.
 */
function checkoutAndKeyCounting(n: number) {
  let statement = countingStatements.get(n);
  if (!statement) {
    statement = prepared((db) => countingStatement(db, n));
    countingStatements.set(n, statement);
  }
  return statement;
}
const countingStatements = new Map<number, (db: Db) => ReturnType<typeof countingStatement>>();

function countingStatement(db: Db, n: number) {
  // A submit repeated under its attempt key starts nothing, so it counts against no limit.
  const replayed = sql`exists (select 1 from ${paymentAttempts} where ${keyedAttempt(sql.placeholder("attemptKey"), sql.placeholder("checkoutId"))})`;
  const keys = Array.from({ length: n }, (_, i) => ({
    key: sql.placeholder(`key${i}`),
    windowEnds: sql.placeholder(`ends${i}`),
    unless: replayed,
  }));
  const counted = db
    .$with("counted", { key: sql<string>`key`, hits: sql<number>`hits`, expires_at: sql<string>`expires_at` })
    .as(countingHits(keys, sql.placeholder("now")));
  return db
    .with(counted)
    .select({
      checkout: checkouts,
      attempt: paymentAttempts,
      counted: sql<Counted[]>`coalesce((select json_agg(counted) from counted), '[]')`,
    })
    .from(checkouts)
    .leftJoin(paymentAttempts, keyedAttempt(sql.placeholder("attemptKey")))
    .where(eq(checkouts.id, sql.placeholder("checkoutId")))
    .prepare(`checkout_and_attempt_key_counting_${n}`);
}

/**
 * A new access token for the saved account whose stored one the provider refused. If there is
 * none, the attempt steps aside (the refused call made no payment, so none failed) and the payer
 * is told why.
 */
async function renewedToken(c: CheckoutContext, link: LinkRow, attemptId: string): Promise<string> {
  try {
    return await refreshedAccessToken(c, link);
  } catch (err) {
    await stepAside(c, attemptId, err instanceof SavedAccountEndedError ? "saved_account_refused" : "refresh_failed");
    return savedAccountEnded(err);
  }
}

/** A saved account that can no longer pay becomes a refusal the page explains (link again). */
function savedAccountEnded(err: unknown): never {
  if (err instanceof SavedAccountEndedError) {
    throw new CheckoutError("saved_account_ended", { detail: "Choose your bank and save it again." });
  }
  if (err instanceof PisError)
    throw new CheckoutError("provider_error", { detail: "We could not reach the payment service." });
  throw err;
}
