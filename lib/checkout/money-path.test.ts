import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkouts, notifications, paymentAttempts } from "../db/schema";
import { testDbKinds } from "../db/testing";
import { createPisClient, PisError, webhookSignature, type InitiatePaymentInput, type InitiatedPayment } from "../pis";
import { getCheckoutDetail } from "./checkouts";
import { webhookUrl, type CheckoutContext } from "./context";
import { CheckoutError } from "./errors";
import { abandonPayment, adoptReturnedPayment } from "./payments";
import { initiationTimeoutMs } from "./attempts";
import { closeStuckInitiations, refreshAttempts } from "./reconcile";
import { createRefund } from "./refunds";
import { TEST_WEBHOOK_SECRET, forceProviderStatus, signedWebhook, testContext, withPis } from "./test-context";
import { receivePisWebhook } from "./webhooks";
import { getCheckoutStatus } from "./checkout-status";
import { createCheckout } from "./create-checkout";
import { startPayment } from "./start-payment";

/**
 * The money path when instances die and messages race (issue 15, ADR 13): a payment the provider
 * completed is never recorded as failed, and a checkout never has two paid attempts unflagged.
 */
describe.each(testDbKinds())("money path under crashes and races (%s)", (kind) => {
  let ctx: CheckoutContext;
  let close: () => Promise<void>;
  beforeAll(async () => ({ ctx, close } = await testContext(kind)));
  afterAll(() => close());

  const order = () => ({
    amount: "25.00",
    currency: "EUR",
    description: "m",
    reference: `m-${Math.random().toString(36).slice(2)}`,
    returnUrl: "https://shop.test/r",
    notifyUrl: "https://shop.test/notify",
  });
  const bankPay = (attemptKey: string) => ({
    method: "bank" as const,
    bankId: "SWEDBANK_LT_SAND",
    termsAccepted: true,
    attemptKey,
  });
  const attemptsOf = async (checkoutId: string) =>
    ctx.db.select().from(paymentAttempts).where(eq(paymentAttempts.checkoutId, checkoutId));
  const statusOf = async (checkoutId: string) =>
    (await ctx.db.select().from(checkouts).where(eq(checkouts.id, checkoutId)))[0]!.status;
  const later = (ms: number) => ({ ...ctx, now: () => new Date(Date.now() + ms) });

  /** The provider completes a payment and tells us, exactly as it signs it (over the URL we gave). */
  async function completeAtProvider(paymentId: string, attemptId?: string) {
    await forceProviderStatus(paymentId, { bankStatus: "ACSC" });
    const w = signedWebhook(
      { id: paymentId, bankStatus: "ACSC", statusGroup: "completed", type: "PAYMENT" },
      { url: webhookUrl(ctx, attemptId) },
    );
    return receivePisWebhook(w.raw, w.headers, ctx, new URLSearchParams(attemptId ? { attempt: attemptId } : {}));
  }

  /** The context with something happening right after the provider (the real one) made a payment. */
  const afterInitiation = (
    then: (made: InitiatedPayment, input: InitiatePaymentInput) => Promise<InitiatedPayment>,
  ): CheckoutContext =>
    withPis(ctx, "payments", { initiate: async (input) => then(await ctx.pis.payments.initiate(input), input) });

  /**
   * A payment start whose instance is killed after the provider made the payment and before we
   * wrote its answer down: the provider call is real, the write never happens.
   */
  async function startAndDieAfterProvider(checkoutId: string, attemptKey: string) {
    let made: InitiatedPayment | undefined;
    const dying = afterInitiation(async (payment) => {
      made = payment;
      throw new Error("instance killed");
    });
    await expect(startPayment(checkoutId, bankPay(attemptKey), dying)).rejects.toThrow("instance killed");
    const [attempt] = await attemptsOf(checkoutId);
    return { attemptId: attempt!.id, payment: made! };
  }

  it("never fails an attempt that holds a provider payment id; the provider's completion still pays the checkout", async () => {
    const checkout = await createCheckout(order(), ctx);
    await startPayment(checkout.id, bankPay("key-held-id-1"), ctx);
    const [attempt] = await attemptsOf(checkout.id);
    // As an earlier version could leave it: the provider's id written, its status not yet.
    await ctx.db
      .update(paymentAttempts)
      .set({ statusGroup: null, providerStatus: null, createdAt: new Date(Date.now() - 10 * 60_000) })
      .where(eq(paymentAttempts.id, attempt!.id));
    await closeStuckInitiations(later(60_000));
    expect((await attemptsOf(checkout.id))[0]).toMatchObject({
      statusGroup: null,
      failureReason: null,
      abandonedAt: null,
    });
    // Reconciliation asks the provider about it, like any attempt in flight.
    await refreshAttempts(later(60_000));
    expect((await attemptsOf(checkout.id))[0]?.statusGroup).toBe("started");
    expect(await completeAtProvider(attempt!.providerPaymentId!)).toEqual({
      refusal: null,
      outcome: "applied",
      authentic: true,
    });
    expect(await statusOf(checkout.id)).toBe("paid");
  });

  it("an instance killed between the provider's answer and our write: the attempt steps aside unfailed, and the webhook still pays it", async () => {
    const checkout = await createCheckout(order(), ctx);
    const { attemptId, payment } = await startAndDieAfterProvider(checkout.id, "key-killed-1");
    expect(await statusOf(checkout.id)).toBe("processing");
    expect(await closeStuckInitiations(later(5 * 60_000))).toBeGreaterThanOrEqual(1);
    const [closed] = await attemptsOf(checkout.id);
    expect(closed).toMatchObject({ statusGroup: null, failureReason: "initiation_unknown" });
    expect(closed!.abandonedAt).not.toBeNull();
    // The payer may pay again meanwhile...
    expect(await statusOf(checkout.id)).toBe("open");
    // ...but the payer had in fact reached the bank: the webhook names the attempt in its URL.
    expect(await completeAtProvider(payment.id, attemptId)).toEqual({
      refusal: null,
      outcome: "applied",
      authentic: true,
    });
    expect(await statusOf(checkout.id)).toBe("paid");
    expect((await attemptsOf(checkout.id))[0]).toMatchObject({
      providerPaymentId: payment.id,
      statusGroup: "completed",
    });
  });

  it("a signed webhook for an unknown payment whose URL names no attempt of ours (junk, a NUL) is answered 'unknown payment', not 500", async () => {
    for (const attempt of ["junk", "pa_\u0000"]) {
      const w = signedWebhook(
        { id: "f".repeat(40), bankStatus: "ACSC", statusGroup: "completed", type: "PAYMENT" },
        { url: webhookUrl(ctx, attempt) },
      );
      expect(await receivePisWebhook(w.raw, w.headers, ctx, new URLSearchParams({ attempt }))).toMatchObject({
        refusal: "webhook_unknown_payment",
      });
    }
    // Not JSON at all, with a raw NUL in it: refused as malformed, and its audit row written.
    const raw = '{"id":"\u0000';
    const ts = String(Date.now());
    const headers = new Headers({
      "X-Kevin-Timestamp": ts,
      "X-Kevin-Signature": webhookSignature(TEST_WEBHOOK_SECRET, webhookUrl(ctx), ts, raw),
    });
    expect(await receivePisWebhook(raw, headers, ctx)).toMatchObject({ refusal: "webhook_malformed" });
  });

  it("the same submit on another instance while the starting one dies: once no live request can hold the initiation, Try again, and the checkout is open", async () => {
    const checkout = await createCheckout(order(), ctx);
    await startAndDieAfterProvider(checkout.id, "key-killed-twice");
    // The repeat arrives (or is still waiting) when the start's request can no longer be alive.
    const afterTimeout = later(initiationTimeoutMs(ctx) + 1000);
    await expect(startPayment(checkout.id, bankPay("key-killed-twice"), afterTimeout)).rejects.toMatchObject({
      status: 409,
      code: "attempt_failed",
    });
    expect((await attemptsOf(checkout.id))[0]).toMatchObject({
      statusGroup: null,
      failureReason: "initiation_unknown",
    });
    expect(await statusOf(checkout.id)).toBe("open");
    expect((await startPayment(checkout.id, bankPay("key-killed-again"), ctx)).confirmLink).toBeTruthy();
  });

  it("the same submit that gives up on a dead start just as another instance's reconciler closes it: Try again, not 'still being started'", async () => {
    const checkout = await createCheckout(order(), ctx);
    await startAndDieAfterProvider(checkout.id, "key-killed-raced");
    const afterTimeout = later(initiationTimeoutMs(ctx) + 1000);
    // The reconciler on another instance closes the attempt the moment after this request last
    // saw it running, before this request's own close takes the locks (CI's chaos run, seed 520213).
    const reconcilerFirst: CheckoutContext = {
      ...afterTimeout,
      db: new Proxy(ctx.db, {
        get(target, prop, receiver) {
          if (prop !== "transaction") return Reflect.get(target, prop, receiver) as unknown;
          return async (...args: Parameters<typeof target.transaction>) => {
            expect(await closeStuckInitiations(afterTimeout)).toBe(1);
            return target.transaction(...args);
          };
        },
      }),
    };
    await expect(startPayment(checkout.id, bankPay("key-killed-raced"), reconcilerFirst)).rejects.toMatchObject({
      status: 409,
      code: "attempt_failed",
    });
    expect(await statusOf(checkout.id)).toBe("open");
  });

  it("the same submit after a start the provider left unknown is told at once to try again, not held", async () => {
    const checkout = await createCheckout(order(), ctx);
    const down = {
      ...ctx,
      pis: createPisClient({ baseUrl: "http://127.0.0.1:1/platform", clientId: "x", clientSecret: "y" }),
    };
    await expect(startPayment(checkout.id, bankPay("key-unknown-twice"), down)).rejects.toMatchObject({
      code: "provider_error",
    });
    await expect(startPayment(checkout.id, bankPay("key-unknown-twice"), ctx)).rejects.toMatchObject({
      code: "attempt_failed",
    });
  }, 5000);

  it("the payer's return finds the attempt of a killed start, checking the payment with the provider first", async () => {
    const checkout = await createCheckout(order(), ctx);
    const { attemptId, payment } = await startAndDieAfterProvider(checkout.id, "key-killed-2");
    await forceProviderStatus(payment.id, { bankStatus: "ACSC" });
    // Another order's payment in the query is not adopted: the query is the payer's to change.
    const other = await createCheckout({ ...order(), amount: "1.00" }, ctx);
    await startPayment(other.id, bankPay("key-other-1"), ctx);
    const [otherAttempt] = await attemptsOf(other.id);
    expect(await adoptReturnedPayment(ctx, checkout.id, attemptId, otherAttempt!.providerPaymentId!)).toBe(false);
    expect((await attemptsOf(checkout.id))[0]?.providerPaymentId).toBeNull();

    expect(await adoptReturnedPayment(ctx, checkout.id, attemptId, payment.id)).toBe(true);
    expect(await statusOf(checkout.id)).toBe("paid");
  });

  it("the webhook of a payment completed while the provider's answer to its start was on its way: the answer does not undo it", async () => {
    const checkout = await createCheckout(order(), ctx);
    const racing = afterInitiation(async (made, input) => {
      const attemptId = new URL(input.webhookUrl!).searchParams.get("attempt")!;
      expect((await completeAtProvider(made.id, attemptId)).outcome).toBe("applied");
      return made;
    });
    const started = await startPayment(checkout.id, bankPay("key-race-answer"), racing);
    expect(await statusOf(checkout.id)).toBe("paid");
    const [attempt] = await attemptsOf(checkout.id);
    expect(attempt).toMatchObject({ statusGroup: "completed", failureReason: null, confirmLink: started.confirmLink });
    const detail = await getCheckoutDetail(checkout.id, ctx);
    expect(detail.timeline.map((e) => e.to)).toEqual(["processing", "paid"]);
  });

  it("a provider that does not answer leaves the attempt unknown, not failed, and the payer can pay again", async () => {
    const checkout = await createCheckout(order(), ctx);
    const down = {
      ...ctx,
      pis: createPisClient({
        baseUrl: "http://127.0.0.1:1/platform",
        clientId: "x",
        clientSecret: "y",
        timeoutMs: 1000,
      }),
    };
    await expect(startPayment(checkout.id, bankPay("key-down-a"), down)).rejects.toMatchObject({
      status: 502,
      code: "provider_error",
    });
    const [attempt] = await attemptsOf(checkout.id);
    expect(attempt).toMatchObject({ statusGroup: null, failureReason: "initiation_unknown" });
    expect(await statusOf(checkout.id)).toBe("open");
    expect((await startPayment(checkout.id, bankPay("key-down-b"), ctx)).confirmLink).toBeTruthy();
  });

  it("a payment start answered with a 200 we could not read leaves the attempt unknown, not failed; the provider's completion still pays", async () => {
    const checkout = await createCheckout(order(), ctx);
    let made: InitiatedPayment | undefined;
    const unreadable = afterInitiation(async (payment) => {
      made = payment;
      throw new PisError({ kind: "parse", operation: "initiatePayment", httpStatus: 200, description: "id" });
    });
    await expect(startPayment(checkout.id, bankPay("key-unreadable-a"), unreadable)).rejects.toMatchObject({
      status: 502,
      code: "provider_error",
    });
    const [attempt] = await attemptsOf(checkout.id);
    expect(attempt).toMatchObject({ statusGroup: null, failureReason: "initiation_unknown" });
    expect(await statusOf(checkout.id)).toBe("open");
    expect((await completeAtProvider(made!.id, attempt!.id)).outcome).toBe("applied");
    expect(await statusOf(checkout.id)).toBe("paid");
  });

  it.each([
    ["without a confirmLink", undefined],
    ["with a confirmLink off the provider's site", "https://evil.example/pay"],
  ])(
    "a payment start answered %s leaves the attempt unfailed, the payer is not sent on, and the provider's completion still pays",
    async (_, link) => {
      // provider-api.md 4.2: confirmLink is optional, and a saved account's payment (4.7) may go
      // ahead without the payer confirming it, so the payment may complete although we sent no one.
      const checkout = await createCheckout(order(), ctx);
      let made: InitiatedPayment | undefined;
      const answered = afterInitiation(async (payment) => {
        made = payment;
        return { ...payment, confirmLink: link };
      });
      await expect(startPayment(checkout.id, bankPay(`key-link-${String(link)}`), answered)).rejects.toMatchObject({
        status: 502,
        code: "provider_error",
      });
      const [attempt] = await attemptsOf(checkout.id);
      expect(attempt).toMatchObject({ statusGroup: null, confirmLink: null });
      expect(await statusOf(checkout.id)).toBe("open");
      expect((await completeAtProvider(made!.id, attempt!.id)).outcome).toBe("applied");
      expect(await statusOf(checkout.id)).toBe("paid");
    },
  );

  it("a second payment the provider completes is flagged as a duplicate, reported to the merchant, and refundable", async () => {
    const checkout = await createCheckout(order(), ctx);
    await startPayment(checkout.id, bankPay("key-dup-first"), ctx);
    const [first] = await attemptsOf(checkout.id);
    // Back from the bank unauthorised, the payer pays another way; the first tab stays open.
    await abandonPayment(checkout.id, ctx);
    await startPayment(checkout.id, bankPay("key-dup-second"), ctx);
    const second = (await attemptsOf(checkout.id)).find((a) => a.id !== first!.id)!;
    await completeAtProvider(second.providerPaymentId!);
    expect(await statusOf(checkout.id)).toBe("paid");
    // The forgotten tab is approved too: the money moved twice.
    expect(await completeAtProvider(first!.providerPaymentId!)).toEqual({
      refusal: null,
      outcome: "applied",
      authentic: true,
    });

    const detail = await getCheckoutDetail(checkout.id, ctx);
    expect(detail.status).toBe("paid");
    expect(detail.attempts.find((a) => a.id === first!.id)).toMatchObject({
      statusGroup: "completed",
      duplicate: true,
    });
    expect(detail.attempts.find((a) => a.id === second.id)).toMatchObject({
      statusGroup: "completed",
      duplicate: false,
    });
    const sent = await ctx.db.select().from(notifications).where(eq(notifications.checkoutId, checkout.id));
    expect(sent.map((n) => n.event).sort()).toEqual(["checkout.duplicate_payment", "checkout.paid"]);
    expect(JSON.parse(sent.find((n) => n.event === "checkout.duplicate_payment")!.payload)).toMatchObject({
      attemptId: first!.id,
    });

    // One click refunds the duplicate in full, and leaves the paying attempt's amount refundable.
    const refund = await createRefund(checkout.id, { amount: "25.00", attemptId: first!.id }, "staff", ctx);
    expect(refund).toMatchObject({ amount: "25.00", attemptId: first!.id });
    await expect(createRefund(checkout.id, { amount: "25.00" }, "staff", ctx)).resolves.toMatchObject({
      attemptId: second.id,
    });
  });

  it.each([
    ["accepted", "ACSP", "payment_authorised", "processing"],
    ["completed", "ACSC", "already_paid", "paid"],
  ])(
    "abandoning a payment the bank has meanwhile %s is refused, so the payer cannot pay twice",
    async (_, bankStatus, code, status) => {
      const checkout = await createCheckout(order(), ctx);
      await startPayment(checkout.id, bankPay(`key-ab-race-${bankStatus}`), ctx);
      const [attempt] = await attemptsOf(checkout.id);
      await forceProviderStatus(attempt!.providerPaymentId!, { bankStatus });
      const err = await abandonPayment(checkout.id, ctx).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(CheckoutError);
      expect(err).toMatchObject({ code });
      expect((await getCheckoutStatus(checkout.id, ctx)).status).toBe(status);
    },
  );

  it("the payer's 'pay another way' while the payment is still being started is told so, and nothing is stopped", async () => {
    const checkout = await createCheckout(order(), ctx);
    let release!: () => void;
    let reached!: () => void;
    const atProvider = new Promise<void>((r) => (reached = r));
    const held = withPis(ctx, "payments", {
      initiate: async (input) => {
        reached();
        await new Promise<void>((r) => (release = r));
        return ctx.pis.payments.initiate(input);
      },
    });
    const starting = startPayment(checkout.id, bankPay("key-ab-starting"), held);
    await atProvider;
    const err = await abandonPayment(checkout.id, ctx).then(
      () => undefined,
      (e: unknown) => e,
    );
    release();
    expect(err).toMatchObject({ code: "payment_in_progress" });
    expect((await starting).confirmLink).toBeTruthy();
    expect((await attemptsOf(checkout.id))[0]).toMatchObject({ abandonedAt: null, statusGroup: "started" });
  });

  it("the payer's 'pay another way' after the bank rejected the payment (no webhook yet) leaves the checkout payable", async () => {
    const checkout = await createCheckout(order(), ctx);
    await startPayment(checkout.id, bankPay("key-ab-rejected-1"), ctx);
    const [attempt] = await attemptsOf(checkout.id);
    await forceProviderStatus(attempt!.providerPaymentId!, { bankStatus: "RJCT" });
    expect(await abandonPayment(checkout.id, ctx)).toEqual({ abandoned: true });
    expect((await startPayment(checkout.id, bankPay("key-ab-rejected-2"), ctx)).confirmLink).toBeTruthy();
  });

  it("a webhook and a new payment start on one checkout at once never deadlock", async () => {
    for (let i = 0; i < 12; i++) {
      const checkout = await createCheckout(order(), ctx);
      await startPayment(checkout.id, bankPay(`key-lock-a-${i}`), ctx);
      const [a] = await attemptsOf(checkout.id);
      await forceProviderStatus(a!.providerPaymentId!, { bankStatus: "CANC" });
      const failed = signedWebhook({
        id: a!.providerPaymentId,
        bankStatus: "CANC",
        statusGroup: "failed",
        type: "PAYMENT",
      });
      const results = await Promise.allSettled([
        receivePisWebhook(failed.raw, failed.headers, ctx),
        startPayment(checkout.id, bankPay(`key-lock-b-${i}`), ctx),
      ]);
      for (const r of results) {
        // A refusal (still in flight) is a fine answer; a database error is not.
        if (r.status === "rejected") expect(r.reason).toBeInstanceOf(CheckoutError);
      }
    }
  });
});
