import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { testDbKinds } from "../db/testing";
import { paymentAttempts, statusEvents, webhookEvents } from "../db/schema";
import { createPisClient, PisError } from "../pis";
import type { CheckoutContext } from "./context";
import { RateLimitedError } from "../http/rate-limit";
import { forceProviderStatus, projectUnknown, refusal, signedWebhook, testContext, withPis } from "./test-context";
import { receivePisWebhook } from "./webhooks";
import { getCheckoutStatus } from "./checkout-status";
import { createCheckout } from "./create-checkout";
import { startPayment } from "./start-payment";

const order = {
  amount: "12.50",
  currency: "EUR",
  description: "Order 42",
  reference: "order-42",
  returnUrl: "https://shop.test/thanks",
};
const bankPay = (attemptKey: string) => ({
  method: "bank" as const,
  bankId: "SWEDBANK_LT_SAND",
  termsAccepted: true,
  attemptKey,
});

describe.each(testDbKinds())("paying a checkout (%s)", (kind) => {
  let ctx: CheckoutContext;
  let close: () => Promise<void>;
  beforeAll(async () => ({ ctx, close } = await testContext(kind)));
  afterAll(() => close());

  const attempts = (checkoutId: string) =>
    ctx.db.select().from(paymentAttempts).where(eq(paymentAttempts.checkoutId, checkoutId));
  /** The provider deliveries kept for audit about one payment, oldest first. */
  const keptWebhooks = (providerPaymentId: string) =>
    ctx.db
      .select()
      .from(webhookEvents)
      .where(eq(webhookEvents.providerPaymentId, providerPaymentId))
      .orderBy(webhookEvents.receivedAt);
  const paymentWebhook = (paymentId: string, statusGroup: string, bankStatus: string) =>
    signedWebhook({ id: paymentId, bankStatus, statusGroup, type: "PAYMENT" });

  it("starts one provider payment with the amount and creditor of the server-side record", async () => {
    const checkout = await createCheckout(order, ctx);
    const res = await startPayment(checkout.id, bankPay("key-aaaaaaaa"), ctx);
    const [attempt] = await attempts(checkout.id);
    expect(res.confirmLink).toContain(attempt!.providerPaymentId!);
    const atProvider = await ctx.pis.payments.get(attempt!.providerPaymentId!);
    expect(atProvider).toMatchObject({
      amount: "12.50",
      currencyCode: "EUR",
      bankPaymentMethod: { creditorName: "Demo Shop UAB" },
    });
    expect((await getCheckoutStatus(checkout.id, ctx)).status).toBe("processing");
  });

  it("second click on Pay does not create a second payment", async () => {
    const checkout = await createCheckout(order, ctx);
    const [a, b] = await Promise.all([
      startPayment(checkout.id, bankPay("key-double"), ctx),
      startPayment(checkout.id, bankPay("key-double"), ctx),
    ]);
    expect(a).toEqual(b);
    expect(await attempts(checkout.id)).toHaveLength(1);
  });

  it("counts its rate limits in the statement that reads the checkout, and refuses past them before writing", async () => {
    const checkout = await createCheckout(order, ctx);
    const limits = [{ key: `pay:checkout:${checkout.id}`, rule: { limit: 1, windowMs: 60_000 } }];
    const first = await startPayment(checkout.id, bankPay("key-limit-aa"), ctx, undefined, limits);
    // A submit repeated under its attempt key (a retry after a lost answer) starts nothing, so it
    // counts against no limit: the payer's retries do not use up their attempts.
    for (let i = 0; i < 2; i++)
      expect((await startPayment(checkout.id, bankPay("key-limit-aa"), ctx, undefined, limits)).attemptId).toBe(
        first.attemptId,
      );
    const refused = await startPayment(checkout.id, bankPay("key-limit-bb"), ctx, undefined, limits).catch(
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(RateLimitedError);
    expect((refused as RateLimitedError).retryAfterSeconds).toBeGreaterThan(0);
    expect(await attempts(checkout.id)).toHaveLength(1);
  });

  it("a card payment asked while the provider cannot say which methods the shop has is answered 'try again', not 'not available'", async () => {
    const checkout = await createCheckout(order, ctx);
    const card = { method: "card" as const, termsAccepted: false, attemptKey: "key-card-outage" };
    expect(await refusal(startPayment(checkout.id, card, projectUnknown(ctx)))).toMatchObject({
      status: 502,
      code: "provider_error",
    });
    expect(await attempts(checkout.id)).toHaveLength(0);
    // A bank payment is not held up by it: the provider's answer to the payment itself decides.
    expect((await startPayment(checkout.id, bankPay("key-bank-outage"), projectUnknown(ctx))).confirmLink).toBeTruthy();
  });

  it("refuses a second payment with another key while one is at the bank", async () => {
    const checkout = await createCheckout(order, ctx);
    await startPayment(checkout.id, bankPay("key-first-1"), ctx);
    const err = await refusal(startPayment(checkout.id, bankPay("key-second-2"), ctx));
    expect(err).toMatchObject({ status: 409, code: "payment_in_progress" });
  });

  it("requires the Terms when the bank is chosen on our page, but not when the provider's page chooses", async () => {
    const checkout = await createCheckout(order, ctx);
    const err = await refusal(startPayment(checkout.id, { ...bankPay("key-terms-1"), termsAccepted: false }, ctx));
    expect(err).toMatchObject({ status: 422, code: "terms_required", errors: [{ path: "termsAccepted" }] });
    expect(await attempts(checkout.id)).toHaveLength(0);
    const hosted = await startPayment(
      checkout.id,
      { method: "bank", termsAccepted: false, attemptKey: "key-hosted-1" },
      ctx,
    );
    expect(hosted.confirmLink).toBeTruthy();
  });

  it("a signed webhook marks the checkout paid, and a late failure does not undo it", async () => {
    const checkout = await createCheckout(order, ctx);
    await startPayment(checkout.id, bankPay("key-webhook"), ctx);
    const [attempt] = await attempts(checkout.id);
    const paid = paymentWebhook(attempt!.providerPaymentId!, "completed", "ACSC");
    expect(await receivePisWebhook(paid.raw, paid.headers, ctx)).toEqual({
      refusal: null,
      outcome: "applied",
      authentic: true,
    });
    expect(await receivePisWebhook(paid.raw, paid.headers, ctx)).toEqual({
      refusal: null,
      outcome: "unchanged",
      authentic: true,
    });
    const late = paymentWebhook(attempt!.providerPaymentId!, "failed", "CANC");
    await receivePisWebhook(late.raw, late.headers, ctx);
    // The sandbox still says "started" for this payment; the landing page's refresh must not downgrade it either.
    const status = await getCheckoutStatus(checkout.id, ctx);
    expect(status.status).toBe("paid");
    expect(status.attempt).toMatchObject({ statusGroup: "completed", providerStatus: "ACSC" });
    const history = await ctx.db.select().from(statusEvents).where(eq(statusEvents.checkoutId, checkout.id));
    expect(history.map((h) => [h.toStatus, h.source])).toEqual([
      ["processing", "initiation"],
      ["processing", "initiation"],
      ["paid", "webhook"],
    ]);
  });

  it("a failed webhook the provider's own status contradicts is not taken as final; the payment's completion still pays", async () => {
    const checkout = await createCheckout(order, ctx);
    await startPayment(checkout.id, bankPay("key-contradicted"), ctx);
    const [attempt] = await attempts(checkout.id);
    const paymentId = attempt!.providerPaymentId!;
    // Authorised at the bank; a stale or reordered delivery still says it was rejected.
    await forceProviderStatus(paymentId, { bankStatus: "ACSP" });
    const stale = paymentWebhook(paymentId, "failed", "RJCT");
    await receivePisWebhook(stale.raw, stale.headers, ctx);
    expect(await getCheckoutStatus(checkout.id, ctx)).toMatchObject({
      status: "processing",
      attempt: { statusGroup: "pending", providerStatus: "ACSP" },
    });
    await forceProviderStatus(paymentId, { bankStatus: "ACSC" });
    const paid = paymentWebhook(paymentId, "completed", "ACSC");
    await receivePisWebhook(paid.raw, paid.headers, ctx);
    expect((await getCheckoutStatus(checkout.id, ctx)).status).toBe("paid");
  });

  it("answers a failed webhook 502 while the provider cannot confirm it, so it is delivered again", async () => {
    const checkout = await createCheckout(order, ctx);
    await startPayment(checkout.id, bankPay("key-unconfirmed"), ctx);
    const [attempt] = await attempts(checkout.id);
    const failed = paymentWebhook(attempt!.providerPaymentId!, "failed", "RJCT");
    const unreachable = withPis(ctx, "payments", {
      status: () => Promise.reject(new PisError({ kind: "network", operation: "getPaymentStatus" })),
    });
    expect(await receivePisWebhook(failed.raw, failed.headers, unreachable)).toMatchObject({
      refusal: "provider_error",
    });
    expect((await getCheckoutStatus(checkout.id, ctx)).status).toBe("processing");
  });

  it.each([429, 408, 401, 403, 400, 422])(
    "a failed webhook for a payment the bank approved is refused while the status read answers %i, and the completion still pays",
    async (httpStatus) => {
      const checkout = await createCheckout(order, ctx);
      await startPayment(checkout.id, bankPay(`key-status-${httpStatus}`), ctx);
      const [attempt] = await attempts(checkout.id);
      const paymentId = attempt!.providerPaymentId!;
      await forceProviderStatus(paymentId, { bankStatus: "ACSP" });
      // Too many requests, a timeout, our credentials refused: none of it says anything about the payment.
      const busy = withPis(ctx, "payments", {
        status: () => Promise.reject(new PisError({ kind: "http", httpStatus, operation: "getPaymentStatus" })),
      });
      const stale = paymentWebhook(paymentId, "failed", "RJCT");
      expect(await receivePisWebhook(stale.raw, stale.headers, busy)).toMatchObject({ refusal: "provider_error" });
      expect((await getCheckoutStatus(checkout.id, ctx)).status).toBe("processing");
      await forceProviderStatus(paymentId, { bankStatus: "ACSC" });
      const paid = paymentWebhook(paymentId, "completed", "ACSC");
      await receivePisWebhook(paid.raw, paid.headers, ctx);
      expect((await getCheckoutStatus(checkout.id, ctx)).status).toBe("paid");
    },
  );

  it("answers an unknown payment's webhook with 404 so the provider retries, and keeps it for audit", async () => {
    const w = paymentWebhook("f".repeat(40), "completed", "ACSC");
    expect(await receivePisWebhook(w.raw, w.headers, ctx)).toEqual({
      refusal: "webhook_unknown_payment",
      outcome: "unknown_payment",
      authentic: true,
    });
    expect(await keptWebhooks("f".repeat(40))).toHaveLength(1);
    // A failure too, which is checked with the provider first: it does not know the payment either.
    const failed = paymentWebhook("e".repeat(40), "failed", "RJCT");
    expect(await receivePisWebhook(failed.raw, failed.headers, ctx)).toMatchObject({
      refusal: "webhook_unknown_payment",
    });
  });

  it("keeps every signed delivery for audit once, with what it did: the change and its repeat", async () => {
    const checkout = await createCheckout(order, ctx);
    await startPayment(checkout.id, bankPay("key-audit"), ctx);
    const [attempt] = await attempts(checkout.id);
    const paid = paymentWebhook(attempt!.providerPaymentId!, "completed", "ACSC");
    await receivePisWebhook(paid.raw, paid.headers, ctx);
    await receivePisWebhook(paid.raw, paid.headers, ctx);
    const kept = await keptWebhooks(attempt!.providerPaymentId!);
    expect(kept.map((e) => [e.type, e.outcome, e.signatureValid, e.rawBody])).toEqual([
      ["PAYMENT", "applied", true, paid.raw],
      ["PAYMENT", "unchanged", true, paid.raw],
    ]);
  });

  it("refuses a webhook with a bad signature and changes nothing", async () => {
    const checkout = await createCheckout(order, ctx);
    await startPayment(checkout.id, bankPay("key-forged"), ctx);
    const [attempt] = await attempts(checkout.id);
    const forged = signedWebhook(
      { id: attempt!.providerPaymentId, bankStatus: "ACSC", statusGroup: "completed", type: "PAYMENT" },
      { secret: "guess" },
    );
    const stored = async () => (await ctx.db.select().from(webhookEvents)).length;
    const before = await stored();
    expect(await receivePisWebhook(forged.raw, forged.headers, ctx)).toMatchObject({
      refusal: "webhook_unsigned",
      authentic: false,
    });
    expect((await getCheckoutStatus(checkout.id, ctx)).status).toBe("processing");
    // Not stored either: anyone can send those.
    expect(await stored()).toBe(before);
  });

  it("lets the payer retry after the bank payment failed", async () => {
    const checkout = await createCheckout(order, ctx);
    await startPayment(checkout.id, bankPay("key-retry-1"), ctx);
    const [first] = await attempts(checkout.id);
    await forceProviderStatus(first!.providerPaymentId!, { bankStatus: "CANC" });
    const cancelled = paymentWebhook(first!.providerPaymentId!, "failed", "CANC");
    await receivePisWebhook(cancelled.raw, cancelled.headers, ctx);
    expect((await getCheckoutStatus(checkout.id, ctx)).status).toBe("failed");
    await startPayment(checkout.id, bankPay("key-retry-2"), ctx);
    expect((await getCheckoutStatus(checkout.id, ctx)).status).toBe("processing");
  });

  it("closes the attempt and lets the payer retry when the provider refuses the payment", async () => {
    const refused = {
      ...ctx,
      pis: createPisClient({
        baseUrl: `${inject("sandboxUrl")}/platform`,
        clientId: "sandbox-client-id",
        clientSecret: "wrong-secret",
        timeoutMs: 1000,
      }),
    };
    const checkout = await createCheckout(order, ctx);
    const err = await refusal(startPayment(checkout.id, bankPay("key-down-1"), refused));
    // Refused, not unreachable: trying the same again will not help, and the cause is kept for the log.
    expect(err).toMatchObject({ status: 422, code: "payment_refused" });
    expect(String((err.cause as Error).message)).toMatch(/401/);
    expect(err.title).not.toMatch(/\d{3}/);
    const [attempt] = await attempts(checkout.id);
    // A refusal is a definite answer: no payment exists, so the attempt has failed.
    expect(attempt).toMatchObject({ statusGroup: "failed" });
    expect(attempt!.failureReason).toMatch(/^provider_401/);
    expect((await startPayment(checkout.id, bankPay("key-down-2"), ctx)).confirmLink).toBeTruthy();
  });

  it("says the provider refused a payment to a creditor account it does not take, and keeps why", async () => {
    const badIban = { ...ctx, config: { ...ctx.config, creditorIban: "LT601010012345678902" } };
    const checkout = await createCheckout(order, badIban);
    const err = await refusal(startPayment(checkout.id, bankPay("key-iban-1"), badIban));
    expect(err).toMatchObject({ status: 422, code: "payment_refused" });
    expect(String((err.cause as Error).message)).toMatch(/HTTP 400/);
  });

  it("refuses an amount with more decimals than the currency has, naming the field", async () => {
    const err = await refusal(createCheckout({ ...order, amount: "1.005" }, ctx));
    expect(err).toMatchObject({ status: 400, errors: [{ path: "amount" }] });
  });
});
