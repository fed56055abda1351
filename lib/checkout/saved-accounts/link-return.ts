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

/** `elsewhere`: the linking was finished in a browser other than the one that started it, so nothing was saved. */
export type LinkOutcome = "linked" | "declined" | "failed" | "elsewhere";

/** Why a linking ended unused when it came back to another browser (ADR 11). */
const OTHER_BROWSER = "other_browser";

/** What a link's row says of how its linking ended. */
export const outcomeOf = (r: LinkRow): LinkOutcome =>
  r.status === "active"
    ? "linked"
    : r.failureReason === "declined"
      ? "declined"
      : r.failureReason === OTHER_BROWSER
        ? "elsewhere"
        : "failed";

/**
 * The payer is back from linking. Trades the code for tokens and stores them sealed, but only in
 * the browser that started the linking (it holds the payer handle): whoever finishes a linking
 * someone sent them must not hand that person their bank account (issue 51). A return anywhere
 * else ends the linking unused, without trading the code.
 */
export async function completeLinking(
  checkoutId: string,
  query: z.infer<typeof linkReturnQuery>,
  payerHandle: string | undefined,
  c: CheckoutContext,
): Promise<LinkOutcome> {
  const [row] = query.requestId
    ? await c.db
        .select()
        .from(accountLinks)
        .where(and(eq(accountLinks.id, query.requestId), eq(accountLinks.checkoutId, checkoutId)))
    : [];
  if (!row) return "failed";
  const ownBrowser = validHandle(payerHandle) && hashHandle(payerHandle) === row.handleHash;
  // Exactly one visit of the return trades the code (it works once): it claims the row first. A
  // reload or a double load finds it claimed and waits for that visit's outcome.
  const [claimed] = await c.db
    .update(accountLinks)
    .set(ownBrowser ? { status: "exchanging", updatedAt: nowOf(c) } : ending("failed", nowOf(c), OTHER_BROWSER))
    .where(and(eq(accountLinks.id, row.id), eq(accountLinks.status, "pending")))
    .returning({ id: accountLinks.id });
  if (!ownBrowser) return "elsewhere";
  if (!claimed) return outcomeOf(await settledLink(c, row.id));

  if (query.status !== "success" || !query.code) {
    await endLink(c, row.id, "failed", "declined");
    return "declined";
  }
  let token;
  try {
    token = await c.pis.auth.exchangeCode(query.code);
  } catch (err) {
    if (!(err instanceof PisError)) throw err;
    await endLink(c, row.id, "failed", `token_${err.kind}`);
    return "failed";
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
  return "linked";
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
 * the outcome when the linking failed or ended because this browser is not the one that started it.
 */
export async function continueAfterLinking(
  checkoutId: string,
  query: z.infer<typeof linkReturnQuery>,
  payerHandle: string | undefined,
  c: CheckoutContext,
): Promise<string> {
  const page = (saved: string) =>
    `${c.config.appUrl}/checkout/${encodeURIComponent(checkoutId)}?saved=${saved}${query.lang ? `&lang=${query.lang}` : ""}`;
  const outcome = await completeLinking(checkoutId, query, payerHandle, c);
  if (outcome !== "linked") return page(outcome);
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
