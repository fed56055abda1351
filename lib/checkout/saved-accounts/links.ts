import { and, eq, inArray } from "drizzle-orm";
import { accountLinks, type AccountLinkStatus } from "../../db/schema";
import { nowOf, type CheckoutContext } from "../context";

/**
 * Saved bank accounts: the provider's account linking (provider-api.md 4.7, 4.8), kept for one
 * merchant customer in one browser (ADR 11). The payer links while paying; for the next 90 days a
 * checkout of the same customer, in the same browser, pays from that account in one click.
 */

/** The provider's one-click period after linking. It does not restart on refresh. */
export const LINK_PERIOD_MS = 90 * 24 * 3600 * 1000;

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

export type EndedStatus = Exclude<AccountLinkStatus, "pending" | "exchanging" | "active">;

/** The change that ends a link. Tokens are wiped, not kept: an ended link has nothing left worth stealing. */
export const ending = (status: EndedStatus, now: Date, reason?: string) => ({
  status,
  accessToken: null,
  refreshToken: null,
  endedAt: now,
  updatedAt: now,
  ...(reason !== undefined && { failureReason: reason }),
});

export async function endLink(ctx: CheckoutContext, id: string, status: EndedStatus, reason?: string) {
  await ctx.db
    .update(accountLinks)
    .set(ending(status, nowOf(ctx), reason))
    .where(eq(accountLinks.id, id));
}

/** The links of one customer in one browser (ADR 11), in the given states. */
export const ownedBy = (customerId: string, handleHash: string, statuses: AccountLinkStatus[]) =>
  and(
    eq(accountLinks.customerId, customerId),
    eq(accountLinks.handleHash, handleHash),
    inArray(accountLinks.status, statuses),
  );

export const readLink = async (ctx: CheckoutContext, id: string) =>
  (await ctx.db.select().from(accountLinks).where(eq(accountLinks.id, id)))[0];

export async function markLinkUsed(ctx: CheckoutContext, linkId: string) {
  await ctx.db
    .update(accountLinks)
    .set({ lastUsedAt: nowOf(ctx) })
    .where(eq(accountLinks.id, linkId));
}

/** The provider refused a fresh access token at payment: the consent is gone. */
export async function markLinkRevoked(ctx: CheckoutContext, linkId: string) {
  await endLink(ctx, linkId, "revoked", "payment_refused");
}
