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

export const webhookUrl = (ctx: CheckoutContext) => `${ctx.config.appUrl}/api/webhooks/pis`;
export const returnUrl = (ctx: CheckoutContext, checkoutId: string) => `${ctx.config.appUrl}/checkout/${checkoutId}/return`;
/** A link from the provider that the payer may be sent to: only on the provider's own origins. */
export const isProviderLink = (ctx: CheckoutContext, link: string) => URL.canParse(link) && ctx.config.confirmOrigins.includes(new URL(link).origin);
export const nowOf = (ctx: CheckoutContext) => (ctx.now ? ctx.now() : new Date());
