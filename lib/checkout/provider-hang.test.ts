import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDbKinds } from "../db/testing";
import { listBanks } from "./banks";
import type { CheckoutContext } from "./context";
import { createCheckout } from "./create-checkout";
import { getCheckoutPageData } from "./page-data";
import { getCheckoutStatus } from "./checkout-status";
import { startPayment } from "./start-payment";
import { testContext } from "./test-context";

/**
 * The provider taking calls and never answering them, on an instance with nothing cached yet (just
 * restarted). A payer's page must still come, degraded, not after every call's three 15 s tries.
 */
function providerHangs(ctx: CheckoutContext): CheckoutContext {
  const never = () => new Promise<never>(() => undefined);
  const { pis } = ctx;
  return {
    ...ctx,
    pis: {
      ...pis,
      project: { ...pis.project, settings: never, paymentMethods: never },
      general: { ...pis.general, countries: never },
      banks: { ...pis.banks, list: never, get: never },
      payments: { ...pis.payments, status: never },
    },
  };
}

describe.each(testDbKinds())("a provider that hangs (%s)", (kind) => {
  let ctx: CheckoutContext;
  let close: () => Promise<void>;
  beforeAll(async () => ({ ctx, close } = await testContext(kind)));
  afterAll(() => close());

  it("leaves the checkout page bank payments and the usual countries, and the bank list says it is unavailable", async () => {
    const hung = providerHangs(ctx);
    const checkout = await createCheckout(
      { amount: "5.00", currency: "EUR", description: "Hang", reference: "hang-1", returnUrl: "http://localhost/r" },
      ctx,
    );
    const page = await getCheckoutPageData(checkout.id, { headers: new Headers() }, hung);
    expect(page).toMatchObject({ methods: { bank: true, card: false }, countries: ["LT", "LV", "EE"] });
    await expect(listBanks("LT", hung)).rejects.toMatchObject({ code: "banks_unavailable" });
  });

  it("answers the landing page's status from what is stored, while the provider is asked in the background", async () => {
    const checkout = await createCheckout(
      { amount: "5.00", currency: "EUR", description: "Hang", reference: "hang-2", returnUrl: "http://localhost/r" },
      ctx,
    );
    await startPayment(
      checkout.id,
      { method: "bank", bankId: "SEB_LT_SAND", termsAccepted: true, attemptKey: "hang-attempt-0002" },
      ctx,
    );
    expect(await getCheckoutStatus(checkout.id, providerHangs(ctx))).toMatchObject({
      status: "processing",
      final: false,
      attempt: { statusGroup: "started" },
    });
  });
});
