import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { paymentAttempts, statusEvents } from "../db/schema";
import { testDbKinds } from "../db/testing";
import type { CheckoutContext } from "./context";
import { newAttemptId } from "./ids";
import { closeStuckInitiations, expireCheckouts, nextCheckDelay, refreshAttempts } from "./reconcile";
import { forceProviderStatus, testContext } from "./test-context";
import { getCheckoutStatus } from "./checkout-status";
import { createCheckout } from "./create-checkout";
import { startPayment } from "./start-payment";

describe.each(testDbKinds())("expiry and reconciliation (%s)", (kind) => {
  let ctx: CheckoutContext;
  let close: () => Promise<void>;
  beforeAll(async () => ({ ctx, close } = await testContext(kind)));
  afterAll(() => close());

  const order = () => ({
    amount: "9.99",
    currency: "EUR",
    description: "r",
    reference: `r-${Math.random()}`,
    returnUrl: "http://localhost/r",
  });

  it("expires an unpaid checkout after its lifetime, but not one whose payment is at the bank", async () => {
    const idle = await createCheckout({ ...order(), expiresInMinutes: 30 }, ctx);
    const inFlight = await createCheckout({ ...order(), expiresInMinutes: 30 }, ctx);
    await startPayment(
      inFlight.id,
      { method: "bank", termsAccepted: false, attemptKey: `key-${inFlight.id.slice(3, 20)}` },
      ctx,
    );
    const later = { ...ctx, now: () => new Date(Date.now() + 31 * 60_000) };
    expect(await expireCheckouts(later)).toBeGreaterThanOrEqual(1);
    expect((await getCheckoutStatus(idle.id, ctx)).status).toBe("expired");
    expect((await getCheckoutStatus(inFlight.id, ctx)).status).toBe("processing");
  });

  it("steps aside an attempt whose provider call never returned, unfailed, so the payer can try again", async () => {
    const checkout = await createCheckout(order(), ctx);
    const id = newAttemptId();
    await ctx.db.insert(paymentAttempts).values({
      id,
      checkoutId: checkout.id,
      attemptKey: "key-crashed-1",
      method: "bank",
      createdAt: new Date(Date.now() - 3 * 60_000),
    });
    expect(await closeStuckInitiations(ctx)).toBeGreaterThanOrEqual(1);
    const [row] = await ctx.db.select().from(paymentAttempts).where(eq(paymentAttempts.id, id));
    expect(row).toMatchObject({ statusGroup: null, failureReason: "initiation_unknown" });
    expect(row!.abandonedAt).not.toBeNull();
    await expect(
      startPayment(checkout.id, { method: "bank", termsAccepted: false, attemptKey: "key-after-crash" }, ctx),
    ).resolves.toHaveProperty("confirmLink");
  });

  it("leaves an initiation alone while a live request may still be waiting on the provider", async () => {
    const checkout = await createCheckout(order(), ctx);
    const id = newAttemptId();
    // Younger than the provider timeout plus margin (5 s + 15 s here): its request may be running.
    await ctx.db.insert(paymentAttempts).values({
      id,
      checkoutId: checkout.id,
      attemptKey: "key-live-1",
      method: "bank",
      createdAt: new Date(Date.now() - 10_000),
    });
    await closeStuckInitiations(ctx);
    expect((await ctx.db.select().from(paymentAttempts).where(eq(paymentAttempts.id, id)))[0]?.statusGroup).toBeNull();
    const later = { ...ctx, now: () => new Date(Date.now() + 15_000) };
    expect(await closeStuckInitiations(later)).toBeGreaterThanOrEqual(1);
    expect((await ctx.db.select().from(paymentAttempts).where(eq(paymentAttempts.id, id)))[0]?.failureReason).toBe(
      "initiation_unknown",
    );
  });

  it("learns a payment's outcome from the provider when neither webhook nor payer came back", async () => {
    const checkout = await createCheckout(order(), ctx);
    await startPayment(
      checkout.id,
      { method: "bank", bankId: "LHV_EE_SAND", termsAccepted: true, attemptKey: `key-${checkout.id.slice(3, 20)}` },
      ctx,
    );
    const [attempt] = await ctx.db.select().from(paymentAttempts).where(eq(paymentAttempts.checkoutId, checkout.id));
    await forceProviderStatus(attempt!.providerPaymentId!, { bankStatus: "ACSC" });
    // Left alone while the payer may still be at the bank; asked about once nobody else is watching.
    expect(await refreshAttempts(ctx)).toBe(0);
    expect(await refreshAttempts({ ...ctx, now: () => new Date(Date.now() + 31_000) })).toBe(1);
    const history = await ctx.db.select().from(statusEvents).where(eq(statusEvents.checkoutId, checkout.id));
    expect(history.at(-1)).toMatchObject({ toStatus: "paid", source: "reconciliation" });
  });

  it("asks less often as a payment ages, and past the link's seven days still once a day until the provider settles it", () => {
    expect(nextCheckDelay(60_000)).toBe(30_000);
    expect(nextCheckDelay(2 * 3600_000)).toBe(15 * 60_000);
    expect(nextCheckDelay(9 * 24 * 3600_000)).toBe(24 * 3600_000);
    expect(nextCheckDelay(90 * 24 * 3600_000)).toBe(24 * 3600_000);
  });

  it("settles a checkout still processing after the link expired, from the provider", async () => {
    const checkout = await createCheckout(order(), ctx);
    await startPayment(
      checkout.id,
      { method: "bank", bankId: "LHV_EE_SAND", termsAccepted: true, attemptKey: `key-old-${checkout.id.slice(3, 20)}` },
      ctx,
    );
    const [attempt] = await ctx.db.select().from(paymentAttempts).where(eq(paymentAttempts.checkoutId, checkout.id));
    // Nine days old and still started at the provider when asked.
    await ctx.db
      .update(paymentAttempts)
      .set({ createdAt: new Date(Date.now() - 9 * 24 * 3600_000) })
      .where(eq(paymentAttempts.id, attempt!.id));
    await refreshAttempts(ctx);
    // The provider settles it later; a day on, we ask again and learn it.
    await forceProviderStatus(attempt!.providerPaymentId!, { bankStatus: "CANC" });
    expect(await refreshAttempts({ ...ctx, now: () => new Date(Date.now() + 25 * 3600_000) })).toBeGreaterThanOrEqual(
      1,
    );
    expect((await getCheckoutStatus(checkout.id, ctx)).status).toBe("failed");
  });
});
