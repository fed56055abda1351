import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDbKinds } from "../db/testing";
import type { CheckoutContext } from "./context";
import { getCheckoutStatus } from "./checkout-status";
import { createCheckout } from "./create-checkout";
import { getCheckoutDetail } from "./checkouts";
import { abandonPayment } from "./payments";
import { startPayment } from "./start-payment";
import { forceProviderStatus, testContext, withPis } from "./test-context";

describe.each(testDbKinds())("the status the landing page reads (%s)", (kind) => {
  let ctx: CheckoutContext;
  let close: () => Promise<void>;
  beforeAll(async () => ({ ctx, close } = await testContext(kind)));
  afterAll(() => close());

  const order = () => ({
    amount: "24.90",
    currency: "EUR",
    description: "Order",
    reference: `s-${Math.random().toString(36).slice(2)}`,
    returnUrl: "https://shop.test/thanks",
  });

  it("a payment the payer stopped, then cancelled at the bank, is no failure of the checkout: still open, no reason", async () => {
    const checkout = await createCheckout(order(), ctx);
    const { confirmLink } = await startPayment(
      checkout.id,
      { method: "bank", bankId: "SWEDBANK_LT_SAND", termsAccepted: true, attemptKey: "key-stopped-1" },
      ctx,
    );
    await abandonPayment(checkout.id, ctx);
    const paymentId = new URL(confirmLink).pathname.split("/").pop()!;
    await forceProviderStatus(paymentId, { bankStatus: "CANC" });

    const status = await getCheckoutStatus(checkout.id, ctx);
    expect(status).toMatchObject({ status: "open", final: false, failureReason: null });
    expect(status.attempt).toMatchObject({ statusGroup: "failed", abandoned: true });
  });

  it("a payment stopped after the checkout's time ended leaves it expired for the merchant too, not open again", async () => {
    const checkout = await createCheckout({ ...order(), expiresInMinutes: 1 }, ctx);
    await startPayment(
      checkout.id,
      { method: "bank", bankId: "SWEDBANK_LT_SAND", termsAccepted: true, attemptKey: "key-stopped-late" },
      ctx,
    );
    const later = { ...ctx, now: () => new Date(Date.now() + 2 * 60_000) };
    await abandonPayment(checkout.id, later);
    // The merchant's read too, not only the landing page's, before the worker's next round.
    expect((await getCheckoutDetail(checkout.id, later)).status).toBe("expired");
    expect(await getCheckoutStatus(checkout.id, later, { askProvider: false })).toMatchObject({
      status: "expired",
      final: true,
    });
  });

  it("asks the provider once for twenty status reads that arrive together, however many tabs and instances poll", async () => {
    const checkout = await createCheckout(order(), ctx);
    await startPayment(
      checkout.id,
      { method: "bank", bankId: "SWEDBANK_LT_SAND", termsAccepted: true, attemptKey: "key-polled-1" },
      ctx,
    );
    let asked = 0;
    const counting = withPis(ctx, "payments", {
      status: (id) => {
        asked++;
        return ctx.pis.payments.status(id);
      },
    });
    // Past the 2 s between asks, twenty reads at once: one of them asks.
    const later = { ...counting, now: () => new Date(Date.now() + 5_000) };
    await Promise.all(Array.from({ length: 20 }, () => getCheckoutStatus(checkout.id, later)));
    expect(asked).toBe(1);
  });
});
