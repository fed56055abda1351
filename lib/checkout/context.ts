import type { Db } from "../db/client";
import type { PisClient } from "../pis";
import type { TokenKey } from "./token-vault";

/** Everything a checkout operation needs from outside; tests build one with PGlite and the sandbox. */
export interface CheckoutContext {
  db: Db;
  pis: PisClient;
  config: {
    appUrl: string;
    creditorName: string;
    creditorIban: string;
    webhookSecret: string;
    /** Signs our notifications to the merchant's notifyUrl. */
    notifySecret: string;
    /** Merchant URLs may point at this machine and private networks (the sandbox; ALLOW_PRIVATE_URLS). */
    allowPrivateUrls: boolean;
    /** Origins a confirmLink may point at; the payer is never sent anywhere else. */
    confirmOrigins: string[];
    checkoutTtlMs: number;
    /** The provider client's request timeout: no live request waits on the provider longer. */
    pisTimeoutMs: number;
    /** Seal saved bank accounts' provider tokens; the first seals, all open (rotation). */
    tokenKeys: TokenKey[];
  };
  now?: () => Date;
}

/**
 * The Webhook-URL and Redirect-URL given to the provider. A payment's attempt id rides along in
 * their query: the provider hands both back as given (and signs over the Webhook-URL), so its
 * outcome still finds the attempt when the instance that started it died before writing the
 * provider's payment id (ADR 13).
 */
export const webhookUrl = (ctx: CheckoutContext, attemptId?: string) =>
  `${ctx.config.appUrl}/api/webhooks/pis${attemptQuery(attemptId)}`;
export const returnUrl = (ctx: CheckoutContext, checkoutId: string, attemptId?: string) =>
  `${ctx.config.appUrl}/checkout/${checkoutId}/return${attemptQuery(attemptId)}`;
const attemptQuery = (attemptId: string | undefined) => (attemptId ? `?attempt=${encodeURIComponent(attemptId)}` : "");
/** A link from the provider that the payer may be sent to: only on the provider's own origins. */
export const isProviderLink = (ctx: CheckoutContext, link: string) =>
  URL.canParse(link) && ctx.config.confirmOrigins.includes(new URL(link).origin);
export const nowOf = (ctx: CheckoutContext) => (ctx.now ? ctx.now() : new Date());

export type { Tx } from "../db";
