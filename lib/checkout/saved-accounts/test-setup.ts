import { eq } from "drizzle-orm";
import { afterAll, beforeAll, inject } from "vitest";
import { accountLinks } from "../../db/schema";
import type { DbKind } from "../../db/testing";
import { walkHostedPage } from "../../pis/test-helpers";
import { loadCheckout } from "../checkouts";
import type { CheckoutContext } from "../context";
import { SANDBOX_CONTROL, testContext } from "../test-context";
import { startLinking } from "./linking";
import { createCheckout } from "../create-checkout";
import { linkReturnUrl, continueAfterLinking } from "./link-return";

export const PSU = {
  ipAddress: "127.0.0.1",
  ipPort: "443",
  userAgent: "vitest",
  httpMethod: "GET" as const,
  deviceId: "device-1",
};
export const order = (customerId?: string, amount = "12.50") => ({
  amount,
  currency: "EUR",
  description: "Order",
  reference: "order-1",
  returnUrl: "https://shop.test/thanks",
  ...(customerId !== undefined && { customerId }),
});

export { refusal } from "../test-context";

export async function sandboxPayment(paymentId: string) {
  const res = await fetch(`${inject("sandboxUrl")}/_sandbox/payments`, { headers: SANDBOX_CONTROL });
  const { data } = (await res.json()) as { data: { id: string; linkingId: string | null; step: string }[] };
  return data.find((p) => p.id === paymentId);
}

/** A checkout context for one database kind, and what every saved-account test does with it. */
export function savedAccountsContext(kind: DbKind) {
  let ctx!: CheckoutContext;
  let close: () => Promise<void>;
  beforeAll(async () => ({ ctx, close } = await testContext(kind)));
  afterAll(() => close());

  /**
   * A new checkout of `customerId`, and its linking done at the sandbox bank (in English, whatever
   * `lang` the payer chose): the query the bank sends the payer back with, not yet taken.
   */
  async function linkAtBank(customerId: string, opts: { handle?: string; lang?: "lt" } = {}) {
    const checkout = await createCheckout(order(customerId), ctx);
    const input = { bankId: "SWEDBANK_LT_SAND", termsAccepted: true, ...(opts.lang && { lang: opts.lang }) };
    const started = await startLinking(checkout.id, input, opts.handle, ctx);
    // The walk reads English buttons: the linking page itself is switched to English.
    const link = new URL(started.authorizationLink);
    link.searchParams.set("lang", "en");
    const back = await walkHostedPage(link.href, linkReturnUrl(ctx, checkout.id, opts.lang), {
      bankId: "SWEDBANK_LT_SAND",
    });
    return { checkout, started, back, query: Object.fromEntries(back.searchParams) };
  }

  const linkOf = async (id: string) => (await ctx.db.select().from(accountLinks).where(eq(accountLinks.id, id)))[0]!;
  return {
    get ctx() {
      return ctx;
    },
    linkOf,
    activeLinkFor: async (customerId: string) =>
      (await ctx.db.select().from(accountLinks).where(eq(accountLinks.customerId, customerId))).find(
        (l) => l.status === "active",
      ),
    loadRow: async (id: string) => (await loadCheckout(ctx, id))!,
    linkAtBank,
    /** The payer ticks "Remember", links at the sandbox bank, and comes back: returns where the browser goes next. */
    async linkWhilePaying(customerId: string, handle?: string) {
      const { checkout, started, query } = await linkAtBank(customerId, { handle });
      const next = await continueAfterLinking(checkout.id, query, started.handle, ctx);
      return { checkout, handle: started.handle, query, next };
    },
  };
}
