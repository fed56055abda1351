import { desc } from "drizzle-orm";
import { accountLinks, type LinkRow, type CheckoutRow } from "../../db/schema";
import { PisError, type AccountPsu, type Balance } from "../../pis";
import { loadCheckout } from "../checkouts";
import { nowOf, type CheckoutContext } from "../context";
import { CheckoutError, checkoutNotFound } from "../errors";
import { toMinor } from "../money";
import { withinMs } from "../poll";
import { findBank } from "../project";
import type { SavedAccountView } from "../contract";
import { ownedBy, ending, SavedAccountEndedError } from "./links";
import { validHandle, hashHandle } from "./payer-handle";
import { accessTokenOf, refreshedAccessToken } from "./tokens";

/** Account information is a nicety on the page: it may not hold the page up longer than this. */
const ACCOUNT_INFO_BUDGET_MS = 2000;

/** "LT60 •••• 8901": enough for the payer to recognise the account, not enough to use it. */
export function maskIban(iban: string): string {
  const compact = iban.replace(/\s+/g, "").toUpperCase();
  return compact.length < 10 ? "••••" : `${compact.slice(0, 4)} •••• ${compact.slice(-4)}`;
}

// Most useful first: what the payer can spend now, then what the bank last booked.
const BALANCE_PREFERENCE = [
  "interimAvailable",
  "expected",
  "forwardAvailable",
  "interimBooked",
  "closingBooked",
  "openingBooked",
];

/** Whether the account's balance covers `amount`; null when no balance in that currency is known. */
export function balanceCovers(balances: readonly Balance[], amount: string, currency: string): boolean | null {
  const usable = balances.filter((b) => b.currencyCode === currency && /^-?\d+(\.\d+)?$/.test(b.amount));
  const best =
    BALANCE_PREFERENCE.map((type) => usable.find((b) => b.type === type)).find((b) => b !== undefined) ?? usable[0];
  if (!best) return null;
  if (best.amount.startsWith("-")) return false;
  return toMinor(best.amount, currency) >= toMinor(amount, currency);
}

/** The active saved account for a payment on this checkout by this browser, or a 409 saying there is none. */
export async function savedAccountForPayment(
  ctx: CheckoutContext,
  checkout: CheckoutRow,
  payerHandle: string | undefined,
): Promise<LinkRow> {
  const [link] =
    checkout.customerId && validHandle(payerHandle)
      ? await ctx.db
          .select()
          .from(accountLinks)
          .where(ownedBy(checkout.customerId, hashHandle(payerHandle), ["active"]))
      : [];
  if (!link) throw new CheckoutError("no_saved_account");
  return link;
}

/**
 * What the checkout page shows about the customer's saved account in this browser: the account
 * to pay from (bank, masked IBAN, whether the balance covers the amount), or that the link ended
 * and the payer should link again. Nothing when there is none, or after the payer forgot it.
 */
export async function savedAccountView(
  ctx: CheckoutContext,
  checkout: CheckoutRow,
  payerHandle: string | undefined,
  psu: AccountPsu,
): Promise<SavedAccountView | null> {
  if (!checkout.customerId || !validHandle(payerHandle)) return null;
  const [latest] = await ctx.db
    .select()
    .from(accountLinks)
    .where(ownedBy(checkout.customerId, hashHandle(payerHandle), ["active", "expired", "revoked", "forgotten"]))
    .orderBy(desc(accountLinks.createdAt))
    .limit(1);
  if (!latest || latest.status === "forgotten") return null;
  const bankName = (await findBank(ctx, latest.bankId).catch(() => null))?.name ?? latest.bankId;
  const view = (
    state: SavedAccountView["state"],
    known: { maskedIban: string | null; covers: boolean | null } | null,
  ): SavedAccountView => ({
    state,
    bankId: latest.bankId,
    bankName,
    maskedIban: known?.maskedIban ?? null,
    covers: known?.covers ?? null,
  });
  if (latest.status !== "active") return view("expired", null);
  try {
    const accessToken = await accessTokenOf(ctx, latest);
    const info = await withinMs(accountInfo(ctx, latest, accessToken, checkout, psu), ACCOUNT_INFO_BUDGET_MS);
    // The bank refused a token we thought fresh: a refresh tells whether the consent is gone.
    if (info === "refused") await refreshedAccessToken(ctx, latest);
    return view("active", info === "refused" ? null : info);
  } catch (err) {
    if (err instanceof SavedAccountEndedError) return view("expired", null);
    if (!(err instanceof PisError)) throw err;
    // The provider is unreachable: offer the account anyway; the payment will tell.
    return view("active", null);
  }
}

async function accountInfo(
  ctx: CheckoutContext,
  link: LinkRow,
  accessToken: string,
  checkout: CheckoutRow,
  psu: AccountPsu,
) {
  if (!link.scopes.includes("accounts_balances")) return null;
  try {
    const [account] = await ctx.pis.accounts.list(accessToken, psu);
    if (!account?.id) return null;
    const balances = await ctx.pis.accounts.balances(accessToken, account.id, psu);
    return {
      maskedIban: account.iban ? maskIban(account.iban) : null,
      covers: balanceCovers(balances, checkout.amount, checkout.currency),
    };
  } catch (err) {
    // A refused token may be a withdrawn consent; anything else only costs the extra information.
    if (err instanceof PisError && err.httpStatus === 401) return "refused" as const;
    if (err instanceof PisError) return null;
    throw err;
  }
}

/** The payer's "Forget this account": the link ends and its tokens are wiped at once. */
export async function forgetSavedAccount(
  checkoutId: string,
  payerHandle: string | undefined,
  c: CheckoutContext,
): Promise<{ forgotten: boolean }> {
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
