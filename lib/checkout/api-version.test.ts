import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { paymentAttempts } from "../db/schema";
import { testDbKinds } from "../db/testing";
import { createPisClient } from "../pis";
import type { CheckoutContext } from "./context";
import { createCheckout } from "./create-checkout";
import { CheckoutError } from "./errors";
import { getCheckoutPageData } from "./page-data";
import { projectInfo } from "./project";
import { createRefund } from "./refunds";
import { startPayment } from "./start-payment";
import { forceProviderStatus, testContext } from "./test-context";
import { getCheckoutStatus } from "./checkout-status";

/**
 * A shop on an older version of the provider's API (PIS_API_VERSION v0.2 or v0.1), which has bank
 * payments and nothing added later: no project settings, payment methods, cards or refunds
 * (provider-api.md 11). Those are refused as what they are, not as a provider outage to retry.
 */
describe.each(testDbKinds())("an older API version (%s)", (kind) => {
  let ctx: CheckoutContext;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const pis = createPisClient({
      baseUrl: `${inject("sandboxUrl")}/platform`,
      clientId: "sandbox-client-id",
      clientSecret: "sandbox-client-secret",
      version: "v0.2",
      timeoutMs: 5000,
    });
    ({ ctx, close } = await testContext(kind, { pis }));
  });
  afterAll(() => close());

  const order = (reference: string) => ({
    amount: "10.00",
    currency: "EUR",
    description: "Old API",
    reference,
    returnUrl: "http://localhost/r",
  });

  it("knows the project takes bank payments only, and offers no card", async () => {
    expect((await projectInfo(ctx)).methods).toEqual({ bank: true, card: false, hybrid: false });
    const checkout = await createCheckout(order("v02-page"), ctx);
    expect((await getCheckoutPageData(checkout.id, { headers: new Headers() }, ctx))?.methods.card).toBe(false);
    const card = await startPayment(
      checkout.id,
      { method: "card", termsAccepted: true, attemptKey: "v02-card-attempt" },
      ctx,
    ).catch((e: unknown) => e);
    expect(card).toBeInstanceOf(CheckoutError);
    expect(card).toMatchObject({ code: "method_unavailable" });
  });

  it("shows the test banner for a sandbox project, whose banks say it where no settings do", async () => {
    const checkout = await createCheckout({ ...order("v02-banner"), country: "LT" }, ctx);
    expect((await getCheckoutPageData(checkout.id, { headers: new Headers() }, ctx))?.sandboxProject).toBe(true);
  });

  it("refuses a refund as something this API version cannot do, not as an outage", async () => {
    const checkout = await createCheckout(order("v02-refund"), ctx);
    await startPayment(
      checkout.id,
      { method: "bank", bankId: "SWEDBANK_LT_SAND", termsAccepted: true, attemptKey: "v02-bank-attempt" },
      ctx,
    );
    const [attempt] = await ctx.db.select().from(paymentAttempts).where(eq(paymentAttempts.checkoutId, checkout.id));
    await forceProviderStatus(attempt!.providerPaymentId!, { bankStatus: "ACSC" });
    expect((await getCheckoutStatus(checkout.id, ctx)).status).toBe("paid");
    const refused = await createRefund(checkout.id, { amount: "1.00" }, "merchant-api", ctx).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: "refund_not_allowed", status: 422 });
    expect((refused as CheckoutError).detail).toMatch(/v0\.3/);
  });
});
