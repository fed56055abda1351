import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { accountLinks, type LinkRow } from "../../db/schema";
import { PisError } from "../../pis";
import { assertPayable, loadCheckout } from "../checkouts";
import { isProviderLink, nowOf, type CheckoutContext } from "../context";
import { CheckoutError, termsRequired, unknownBank } from "../errors";
import { bankIdInput, newLinkId } from "../ids";
import { pollUntil } from "../poll";
import { findBank, projectInfo } from "../project";
import { sealToken } from "../token-vault";
import { LOCALES, type Locale } from "../types";
import { endLink, ending, LINK_PERIOD_MS, readLink, ownedBy } from "./links";
import { newPayerHandle, validHandle, hashHandle } from "./payer-handle";

/** Saving the payer's account while paying: the provider's linking, and the payer's way back from it. */

export const startLinkingInput = z.object({
  bankId: bankIdInput,
  termsAccepted: z.boolean(),
  lang: z.enum(LOCALES).optional(),
});

export type StartLinkingInput = z.infer<typeof startLinkingInput>;

const savingUnavailable = (why: string) =>
  new CheckoutError("saving_unavailable", {
    detail: "Saving a bank account is not available here. You can still pay.",
    errors: [{ path: "bankId", message: why }],
  });

/** The scopes to ask for: payments, and the account's balance where the project may read it. */
function linkScopes(projectScopes: string[]): string[] {
  return ["payments", ...(projectScopes.includes("accounts_balances") ? ["accounts_balances"] : [])];
}

/**
 * Starts linking the payer's account at the chosen bank (POST /auth). Returns where to send the
 * payer, and the browser handle to keep (a new one when the browser had none).
 */
export async function startLinking(
  checkoutId: string,
  input: StartLinkingInput,
  payerHandle: string | undefined,
  c: CheckoutContext,
) {
  const checkout = await loadCheckout(c, checkoutId);
  assertPayable(c, checkout);
  if (!input.termsAccepted) throw termsRequired();
  if (!checkout.customerId) throw savingUnavailable("this checkout has no signed-in customer");
  const project = await projectInfo(c);
  if (!project.methods.bank || !project.scopes.includes("payments"))
    throw savingUnavailable("the shop's provider project cannot link accounts");
  const bank = await findBank(c, input.bankId).catch(() => undefined);
  if (bank === null) throw unknownBank();
  if (bank?.isAccountLinkingSupported === false) throw savingUnavailable("this bank does not allow saving an account");

  const handle = validHandle(payerHandle) ? payerHandle : newPayerHandle();
  const id = newLinkId();
  const scopes = linkScopes(project.scopes);
  await c.db.insert(accountLinks).values({
    id,
    customerId: checkout.customerId,
    handleHash: hashHandle(handle),
    checkoutId,
    bankId: input.bankId,
    scopes,
  });
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
