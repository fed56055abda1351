import { createHash, randomBytes } from "node:crypto";
import { and, desc, eq, inArray, lte, notLike, or } from "drizzle-orm";
import { z } from "zod";
import { accountLinks, checkouts, type AccountLinkStatus } from "../db/schema";
import { PisError, type AccountPsu, type Balance } from "../pis";
import { loadCheckout } from "./checkouts";
import { isProviderLink, nowOf, type CheckoutContext } from "./context";
import { CheckoutError, termsRequired, unknownBank, checkoutNotFound } from "./errors";
import { bankIdInput, newLinkId } from "./ids";
import { toMinor } from "./money";
import { pollUntil, withinMs } from "./poll";
import { findBank, projectInfo } from "./project";
import { needsReseal, openToken, sealToken, TokenVaultError, type TokenKey } from "./token-vault";
import { LOCALES, type Locale } from "./types";
import type { SavedAccountView } from "./contract";

/**
 * Saved bank accounts: the provider's account linking (provider-api.md 4.7, 4.8), kept for one
 * merchant customer in one browser (ADR 11). The payer links while paying; for the next 90 days a
 * checkout of the same customer, in the same browser, pays from that account in one click.
 */

/** The provider's one-click period after linking. It does not restart on refresh. */
export const LINK_PERIOD_MS = 90 * 24 * 3600 * 1000;
/** Access tokens are refreshed when they have less than this left. */
const REFRESH_AHEAD_MS = 5 * 60 * 1000;
/** How long a refused refresh waits for a concurrent one's new tokens before calling the link revoked. */
const RACE_GRACE_MS = 2000;
/** Account information is a nicety on the page: it may not hold the page up longer than this. */
const ACCOUNT_INFO_BUDGET_MS = 2000;

/** The browser-held half of a payer's identity: an HttpOnly cookie with 256 random bits. */
export const PAYER_HANDLE_COOKIE = "payer_handle";
export const PAYER_HANDLE_MAX_AGE_S = 400 * 24 * 3600;

export function newPayerHandle(): string {
  return randomBytes(32).toString("base64url");
}

const validHandle = (handle: string | undefined): handle is string => handle !== undefined && /^[A-Za-z0-9_-]{43}$/.test(handle);

/** Only this hash is stored: a database leak does not hand out usable browser handles. */
export function hashHandle(handle: string): string {
  return createHash("sha256").update(`payer-handle:${handle}`).digest("hex");
}

/** "LT60 •••• 8901": enough for the payer to recognise the account, not enough to use it. */
export function maskIban(iban: string): string {
  const compact = iban.replace(/\s+/g, "").toUpperCase();
  return compact.length < 10 ? "••••" : `${compact.slice(0, 4)} •••• ${compact.slice(-4)}`;
}

// Most useful first: what the payer can spend now, then what the bank last booked.
const BALANCE_PREFERENCE = ["interimAvailable", "expected", "forwardAvailable", "interimBooked", "closingBooked", "openingBooked"];

/** Whether the account's balance covers `amount`; null when no balance in that currency is known. */
export function balanceCovers(balances: readonly Balance[], amount: string, currency: string): boolean | null {
  const usable = balances.filter((b) => b.currencyCode === currency && /^-?\d+(\.\d+)?$/.test(b.amount));
  const best = BALANCE_PREFERENCE.map((type) => usable.find((b) => b.type === type)).find((b) => b !== undefined) ?? usable[0];
  if (!best) return null;
  if (best.amount.startsWith("-")) return false;
  return toMinor(best.amount, currency) >= toMinor(amount, currency);
}

type LinkRow = typeof accountLinks.$inferSelect;
type CheckoutRow = typeof checkouts.$inferSelect;

/**
 * Why a saved account cannot be used any more: the payer must link again. `unreadable`: its tokens
 * were sealed with a key that is no longer configured (the link is left as it is, in case the
 * operator puts the key back).
 */
export class SavedAccountEndedError extends Error {
  constructor(readonly status: "expired" | "revoked" | "unreadable") {
    super(`saved account ${status}`);
  }
}

/** Opens a link's sealed token; a key no longer configured is a handled state, said once in the log. */
function openLinkToken(link: LinkRow, sealed: string, keys: readonly TokenKey[]): string {
  try {
    return openToken(sealed, keys);
  } catch (err) {
    if (!(err instanceof TokenVaultError)) throw err;
    console.warn(`saved account ${link.id}: ${err.message}; put its key back in TOKEN_ENCRYPTION_KEYS, or the payer links again`);
    throw new SavedAccountEndedError("unreadable");
  }
}

/**
 * Seals the link's tokens again with the newest key, if an older one sealed them, so that the old
 * key can be removed after a rotation. Written only if the tokens are still the ones read (a
 * refresh meanwhile sealed new ones with the newest key anyway).
 */
async function resealIfOld(ctx: CheckoutContext, link: LinkRow): Promise<boolean> {
  const keys = ctx.config.tokenKeys;
  if (!link.accessToken || !link.refreshToken) return false;
  if (!needsReseal(link.accessToken, keys) && !needsReseal(link.refreshToken, keys)) return false;
  const updated = await ctx.db
    .update(accountLinks)
    .set({ accessToken: sealToken(openLinkToken(link, link.accessToken, keys), keys), refreshToken: sealToken(openLinkToken(link, link.refreshToken, keys), keys) })
    .where(and(eq(accountLinks.id, link.id), eq(accountLinks.accessToken, link.accessToken), eq(accountLinks.refreshToken, link.refreshToken)))
    .returning({ id: accountLinks.id });
  return updated.length > 0;
}

/**
 * The worker's share of a key rotation: re-seals, a batch per round, the active links still sealed
 * with an older key, so that accounts nobody uses for a while do not hold the old key in place.
 */
export async function resealOldTokens(ctx: CheckoutContext, batch = 100): Promise<number> {
  const newest = ctx.config.tokenKeys[0]?.id;
  if (!newest) return 0;
  const prefix = `v1.${newest}.`;
  const stale = await ctx.db
    .select()
    .from(accountLinks)
    .where(and(eq(accountLinks.status, "active"), or(notLike(accountLinks.accessToken, `${prefix}%`), notLike(accountLinks.refreshToken, `${prefix}%`))))
    .limit(batch);
  let resealed = 0;
  for (const link of stale) {
    try {
      if (await resealIfOld(ctx, link)) resealed++;
    } catch (err) {
      if (!(err instanceof SavedAccountEndedError)) throw err; // unreadable: warned, left as it is
    }
  }
  return resealed;
}

type EndedStatus = Exclude<AccountLinkStatus, "pending" | "exchanging" | "active">;

/** The change that ends a link. Tokens are wiped, not kept: an ended link has nothing left worth stealing. */
const ending = (status: EndedStatus, now: Date, reason?: string) => ({
  status,
  accessToken: null,
  refreshToken: null,
  endedAt: now,
  updatedAt: now,
  ...(reason !== undefined && { failureReason: reason }),
});

async function endLink(ctx: CheckoutContext, id: string, status: EndedStatus, reason?: string) {
  await ctx.db.update(accountLinks).set(ending(status, nowOf(ctx), reason)).where(eq(accountLinks.id, id));
}

/** The links of one customer in one browser (ADR 11), in the given states. */
const ownedBy = (customerId: string, handleHash: string, statuses: AccountLinkStatus[]) =>
  and(eq(accountLinks.customerId, customerId), eq(accountLinks.handleHash, handleHash), inArray(accountLinks.status, statuses));

const readLink = async (ctx: CheckoutContext, id: string) => (await ctx.db.select().from(accountLinks).where(eq(accountLinks.id, id)))[0];

/** The provider refusing a token or grant (as opposed to being unreachable). */
const refused = (err: unknown) => err instanceof PisError && err.kind === "http" && (err.httpStatus === 400 || err.httpStatus === 401 || err.httpStatus === 403);

/**
 * An access token for the link, refreshed first when it is about to expire. Refresh tokens rotate,
 * so two requests refreshing at once would spend the same one: no lock is held over the provider
 * call; instead the new tokens are stored only if the old refresh token is still the stored one,
 * and the loser of such a race uses the winner's tokens.
 */
export async function accessTokenOf(ctx: CheckoutContext, link: LinkRow, opts: { force?: boolean } = {}): Promise<string> {
  const now = nowOf(ctx);
  if (link.status !== "active" || !link.accessToken || !link.refreshToken) throw new SavedAccountEndedError("revoked");
  if (link.expiresAt && link.expiresAt <= now) {
    await endLink(ctx, link.id, "expired");
    throw new SavedAccountEndedError("expired");
  }
  const keys = ctx.config.tokenKeys;
  if (!opts.force && link.accessExpiresAt && link.accessExpiresAt.getTime() - now.getTime() > REFRESH_AHEAD_MS) {
    const accessToken = openLinkToken(link, link.accessToken, keys);
    await resealIfOld(ctx, link);
    return accessToken;
  }

  let token;
  const refreshToken = openLinkToken(link, link.refreshToken, keys);
  try {
    token = await ctx.pis.auth.refresh(refreshToken);
  } catch (err) {
    if (!refused(err)) throw err;
    // Refused: either another request spent this refresh token first (its new tokens are stored
    // moments after the provider answered it), or the consent is gone.
    const current = await pollUntil(() => readLink(ctx, link.id), (r) => r?.status !== "active" || r.refreshToken !== link.refreshToken, RACE_GRACE_MS);
    if (current?.status === "active" && current.refreshToken !== link.refreshToken && current.accessToken) return openLinkToken(current, current.accessToken, keys);
    await endLink(ctx, link.id, "revoked", "refresh_refused");
    throw new SavedAccountEndedError("revoked");
  }
  const updated = await ctx.db
    .update(accountLinks)
    .set({
      accessToken: sealToken(token.accessToken, keys),
      accessExpiresAt: new Date(nowOf(ctx).getTime() + token.accessTokenExpiresIn),
      refreshToken: sealToken(token.refreshToken, keys),
      updatedAt: nowOf(ctx),
    })
    .where(and(eq(accountLinks.id, link.id), eq(accountLinks.refreshToken, link.refreshToken), eq(accountLinks.status, "active")))
    .returning({ id: accountLinks.id });
  // The link ended or was refreshed meanwhile; the fresh token still works for this one call.
  if (updated.length === 0 && (await readLink(ctx, link.id))?.status !== "active") throw new SavedAccountEndedError("revoked");
  return token.accessToken;
}

/** The provider's authorizationLink lives 48 hours; a linking not back by then never will be. */
const PENDING_LINK_TTL_MS = 48 * 3600 * 1000;

/**
 * Housekeeping for the worker: links past their 90 days lose their tokens now rather than at
 * their next use, and linkings the payer never finished are closed.
 */
export async function endLapsedLinks(ctx: CheckoutContext): Promise<number> {
  const now = nowOf(ctx);
  const expired = await ctx.db
    .update(accountLinks)
    .set(ending("expired", now))
    .where(and(eq(accountLinks.status, "active"), lte(accountLinks.expiresAt, now)))
    .returning({ id: accountLinks.id });
  const abandoned = await ctx.db
    .update(accountLinks)
    .set(ending("failed", now, "not_finished"))
    .where(and(inArray(accountLinks.status, ["pending", "exchanging"]), lte(accountLinks.createdAt, new Date(now.getTime() - PENDING_LINK_TTL_MS))))
    .returning({ id: accountLinks.id });
  return expired.length + abandoned.length;
}

// ---------------------------------------------------------------------------------------------
// Linking while paying.

export const startLinkingInput = z.object({
  bankId: bankIdInput,
  termsAccepted: z.boolean(),
  lang: z.enum(LOCALES).optional(),
});
export type StartLinkingInput = z.infer<typeof startLinkingInput>;

/** A checkout the payer may still pay, or the refusal that says why not. */
export function assertPayable(ctx: CheckoutContext, checkout: CheckoutRow | undefined): asserts checkout is CheckoutRow {
  if (!checkout) throw checkoutNotFound();
  if (checkout.status === "paid") throw new CheckoutError("already_paid");
  if (checkout.status === "cancelled") throw new CheckoutError("checkout_cancelled");
  if (checkout.status === "expired" || checkout.expiresAt <= nowOf(ctx)) {
    throw new CheckoutError("checkout_expired");
  }
}

const savingUnavailable = (why: string) =>
  new CheckoutError("saving_unavailable", { detail: "Saving a bank account is not available here. You can still pay.", errors: [{ path: "bankId", message: why }] });

/** The scopes to ask for: payments, and the account's balance where the project may read it. */
function linkScopes(projectScopes: string[]): string[] {
  return ["payments", ...(projectScopes.includes("accounts_balances") ? ["accounts_balances"] : [])];
}

/**
 * Starts linking the payer's account at the chosen bank (POST /auth). Returns where to send the
 * payer, and the browser handle to keep (a new one when the browser had none).
 */
export async function startLinking(checkoutId: string, input: StartLinkingInput, payerHandle: string | undefined, c: CheckoutContext) {
  const checkout = await loadCheckout(c, checkoutId);
  assertPayable(c, checkout);
  if (!input.termsAccepted) throw termsRequired();
  if (!checkout.customerId) throw savingUnavailable("this checkout has no signed-in customer");
  const project = await projectInfo(c);
  if (!project.methods.bank || !project.scopes.includes("payments")) throw savingUnavailable("the shop's provider project cannot link accounts");
  const bank = await findBank(c, input.bankId).catch(() => undefined);
  if (bank === null) throw unknownBank();
  if (bank?.isAccountLinkingSupported === false) throw savingUnavailable("this bank does not allow saving an account");

  const handle = validHandle(payerHandle) ? payerHandle : newPayerHandle();
  const id = newLinkId();
  const scopes = linkScopes(project.scopes);
  await c.db.insert(accountLinks).values({ id, customerId: checkout.customerId, handleHash: hashHandle(handle), checkoutId, bankId: input.bankId, scopes });
  try {
    const started = await c.pis.auth.start({
      scopes,
      requestId: id,
      redirectUrl: linkReturnUrl(c, checkoutId, input.lang),
      bankId: input.bankId,
      lang: input.lang,
    });
    if (!isProviderLink(c, started.authorizationLink)) {
      await endLink(c, id, "failed", "untrusted_authorization_link");
      throw new CheckoutError("provider_error", { detail: "The payment service gave an unexpected answer." });
    }
    return { authorizationLink: started.authorizationLink, handle };
  } catch (err) {
    if (!(err instanceof PisError)) throw err;
    await endLink(c, id, "failed", `provider_${err.kind}`);
    throw new CheckoutError("provider_error", { detail: "The payment service could not start saving your account." });
  }
}

/** Where the provider sends the payer after linking; the language rides along for the payment that follows. */
export const linkReturnUrl = (ctx: CheckoutContext, checkoutId: string, lang?: Locale) =>
  `${ctx.config.appUrl}/checkout/${encodeURIComponent(checkoutId)}/saved-account${lang ? `?lang=${lang}` : ""}`;

/** The provider's redirect after linking (provider-api.md 4.7). Anything else is a failed linking. */
export const linkReturnQuery = z.object({
  lang: z.enum(LOCALES).optional().catch(undefined),
  requestId: z.string().max(100).optional(),
  code: z.string().max(2000).optional(),
  status: z.string().max(20).optional(),
});

export type LinkOutcome = "linked" | "declined" | "failed";

/**
 * The payer is back from linking. Trades the code for tokens and stores them sealed. Returns
 * the outcome and whether this browser holds the link (then the payment may go straight on).
 */
export async function completeLinking(
  checkoutId: string,
  query: z.infer<typeof linkReturnQuery>,
  payerHandle: string | undefined,
  c: CheckoutContext,
): Promise<{ outcome: LinkOutcome; ownBrowser: boolean }> {
  const [row] = query.requestId ? await c.db.select().from(accountLinks).where(and(eq(accountLinks.id, query.requestId), eq(accountLinks.checkoutId, checkoutId))) : [];
  if (!row) return { outcome: "failed", ownBrowser: false };
  const ownBrowser = validHandle(payerHandle) && hashHandle(payerHandle) === row.handleHash;
  const outcomeOf = (r: LinkRow): LinkOutcome => (r.status === "active" ? "linked" : r.failureReason === "declined" ? "declined" : "failed");
  // Exactly one visit of the return trades the code (it works once): it claims the row first. A
  // reload or a double load finds it claimed and waits for that visit's outcome.
  const [claimed] = await c.db
    .update(accountLinks)
    .set({ status: "exchanging", updatedAt: nowOf(c) })
    .where(and(eq(accountLinks.id, row.id), eq(accountLinks.status, "pending")))
    .returning({ id: accountLinks.id });
  if (!claimed) return { outcome: outcomeOf(await settledLink(c, row.id)), ownBrowser };

  if (query.status !== "success" || !query.code) {
    await endLink(c, row.id, "failed", "declined");
    return { outcome: "declined", ownBrowser };
  }
  let token;
  try {
    token = await c.pis.auth.exchangeCode(query.code);
  } catch (err) {
    if (!(err instanceof PisError)) throw err;
    await endLink(c, row.id, "failed", `token_${err.kind}`);
    return { outcome: "failed", ownBrowser };
  }
  const now = nowOf(c);
  const keys = c.config.tokenKeys;
  await c.db.transaction(async (tx) => {
    // The new link takes the place of the customer's earlier one in this browser.
    await tx.update(accountLinks).set(ending("replaced", now)).where(ownedBy(row.customerId, row.handleHash, ["active"]));
    await tx
      .update(accountLinks)
      .set({
        status: "active",
        accessToken: sealToken(token.accessToken, keys),
        accessExpiresAt: new Date(now.getTime() + token.accessTokenExpiresIn),
        refreshToken: sealToken(token.refreshToken, keys),
        providerLinkId: token.authId ?? null,
        expiresAt: new Date(now.getTime() + LINK_PERIOD_MS),
        updatedAt: now,
      })
      .where(eq(accountLinks.id, row.id));
  });
  return { outcome: "linked", ownBrowser };
}

/** The link once the visit that claimed it has finished (a provider call at most: bounded by its timeout). */
async function settledLink(ctx: CheckoutContext, id: string): Promise<LinkRow> {
  const row = await pollUntil(() => readLink(ctx, id), (r) => r?.status !== "exchanging", ctx.config.pisTimeoutMs + 5000);
  if (!row) throw new Error(`account link ${id} vanished`);
  return row;
}

// ---------------------------------------------------------------------------------------------
// Using and forgetting.

/** The active saved account for a payment on this checkout by this browser, or a 409 saying there is none. */
export async function savedAccountForPayment(ctx: CheckoutContext, checkout: CheckoutRow, payerHandle: string | undefined): Promise<LinkRow> {
  const [link] =
    checkout.customerId && validHandle(payerHandle)
      ? await ctx.db.select().from(accountLinks).where(ownedBy(checkout.customerId, hashHandle(payerHandle), ["active"]))
      : [];
  if (!link) throw new CheckoutError("no_saved_account");
  return link;
}

export async function markLinkUsed(ctx: CheckoutContext, linkId: string) {
  await ctx.db.update(accountLinks).set({ lastUsedAt: nowOf(ctx) }).where(eq(accountLinks.id, linkId));
}

/** The provider refused a fresh access token at payment: the consent is gone. */
export async function markLinkRevoked(ctx: CheckoutContext, linkId: string) {
  await endLink(ctx, linkId, "revoked", "payment_refused");
}

/**
 * What the checkout page shows about the customer's saved account in this browser: the account
 * to pay from (bank, masked IBAN, whether the balance covers the amount), or that the link ended
 * and the payer should link again. Nothing when there is none, or after the payer forgot it.
 */
export async function savedAccountView(ctx: CheckoutContext, checkout: CheckoutRow, payerHandle: string | undefined, psu: AccountPsu): Promise<SavedAccountView | null> {
  if (!checkout.customerId || !validHandle(payerHandle)) return null;
  const [latest] = await ctx.db
    .select()
    .from(accountLinks)
    .where(ownedBy(checkout.customerId, hashHandle(payerHandle), ["active", "expired", "revoked", "forgotten"]))
    .orderBy(desc(accountLinks.createdAt))
    .limit(1);
  if (!latest || latest.status === "forgotten") return null;
  const bankName = (await findBank(ctx, latest.bankId).catch(() => null))?.name ?? latest.bankId;
  const view = (state: SavedAccountView["state"], known: { maskedIban: string | null; covers: boolean | null } | null): SavedAccountView =>
    ({ state, bankId: latest.bankId, bankName, maskedIban: known?.maskedIban ?? null, covers: known?.covers ?? null });
  if (latest.status !== "active") return view("expired", null);
  try {
    const accessToken = await accessTokenOf(ctx, latest);
    const info = await withinMs(accountInfo(ctx, latest, accessToken, checkout, psu), ACCOUNT_INFO_BUDGET_MS);
    // The bank refused a token we thought fresh: a refresh tells whether the consent is gone.
    if (info === "refused") await accessTokenOf(ctx, latest, { force: true });
    return view("active", info === "refused" ? null : info);
  } catch (err) {
    if (err instanceof SavedAccountEndedError) return view("expired", null);
    if (!(err instanceof PisError)) throw err;
    // The provider is unreachable: offer the account anyway; the payment will tell.
    return view("active", null);
  }
}

async function accountInfo(ctx: CheckoutContext, link: LinkRow, accessToken: string, checkout: CheckoutRow, psu: AccountPsu) {
  if (!link.scopes.includes("accounts_balances")) return null;
  try {
    const [account] = await ctx.pis.accounts.list(accessToken, psu);
    if (!account?.id) return null;
    const balances = await ctx.pis.accounts.balances(accessToken, account.id, psu);
    return { maskedIban: account.iban ? maskIban(account.iban) : null, covers: balanceCovers(balances, checkout.amount, checkout.currency) };
  } catch (err) {
    // A refused token may be a withdrawn consent; anything else only costs the extra information.
    if (err instanceof PisError && err.httpStatus === 401) return "refused" as const;
    if (err instanceof PisError) return null;
    throw err;
  }
}

/** The payer's "Forget this account": the link ends and its tokens are wiped at once. */
export async function forgetSavedAccount(checkoutId: string, payerHandle: string | undefined, c: CheckoutContext): Promise<{ forgotten: boolean }> {
  const checkout = await loadCheckout(c, checkoutId);
  if (!checkout) throw checkoutNotFound();
  if (!checkout.customerId || !validHandle(payerHandle)) return { forgotten: false };
  const rows = await c.db
    .update(accountLinks)
    .set(ending("forgotten", nowOf(c)))
    .where(ownedBy(checkout.customerId, hashHandle(payerHandle), ["active", "expired", "revoked"]))
    .returning({ id: accountLinks.id });
  return { forgotten: rows.length > 0 };
}
