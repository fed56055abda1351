import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { accountLinks, type LinkRow } from "../../db/schema";
import { PisError } from "../../pis";
import { nowOf, type CheckoutContext } from "../context";
import { CheckoutError } from "../errors";
import { pollUntil } from "../poll";
import { sealToken } from "../token-vault";
import { LOCALES, type Locale } from "../types";
import { endLink, ending, LINK_PERIOD_MS, readLink, ownedBy } from "./links";
import { validHandle, hashHandle } from "./payer-handle";
import { startPayment } from "../start-payment";

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
  const [row] = query.requestId
    ? await c.db
        .select()
        .from(accountLinks)
        .where(and(eq(accountLinks.id, query.requestId), eq(accountLinks.checkoutId, checkoutId)))
    : [];
  if (!row) return { outcome: "failed", ownBrowser: false };
  const ownBrowser = validHandle(payerHandle) && hashHandle(payerHandle) === row.handleHash;
  const outcomeOf = (r: LinkRow): LinkOutcome =>
    r.status === "active" ? "linked" : r.failureReason === "declined" ? "declined" : "failed";
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
    await tx
      .update(accountLinks)
      .set(ending("replaced", now))
      .where(ownedBy(row.customerId, row.handleHash, ["active"]));
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
  const row = await pollUntil(
    () => readLink(ctx, id),
    (r) => r?.status !== "exchanging",
    ctx.config.pisTimeoutMs + 5000,
  );
  if (!row) throw new Error(`account link ${id} vanished`);
  return row;
}

/**
 * Where the payer goes after the provider's account linking: straight on to the payment from the
 * new saved account (the Pay click that started the linking), or back to the checkout page with
 * the outcome when the linking failed or this browser is not the one that started it.
 */
export async function continueAfterLinking(
  checkoutId: string,
  query: z.infer<typeof linkReturnQuery>,
  payerHandle: string | undefined,
  c: CheckoutContext,
): Promise<string> {
  const page = (saved: string) =>
    `${c.config.appUrl}/checkout/${encodeURIComponent(checkoutId)}?saved=${saved}${query.lang ? `&lang=${query.lang}` : ""}`;
  const { outcome, ownBrowser } = await completeLinking(checkoutId, query, payerHandle, c);
  if (outcome !== "linked") return page(outcome);
  if (!ownBrowser) return page("elsewhere");
  try {
    // One attempt per linking (the request id named a real link): a reload gets the same payment.
    const attemptKey = `linked-${query.requestId}`;
    const { confirmLink } = await startPayment(
      checkoutId,
      { method: "bank", termsAccepted: true, attemptKey, savedAccount: true, lang: query.lang },
      c,
      payerHandle,
    );
    return confirmLink;
  } catch (err) {
    // Paid meanwhile, expired, provider down: the checkout page shows where things stand.
    if (err instanceof CheckoutError) return page("linked");
    throw err;
  }
}
