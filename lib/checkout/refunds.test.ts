import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkouts, notifications, refunds } from "../db/schema";
import { listCheckouts } from "./backoffice";
import { testDbKinds } from "../db/testing";
import type { CheckoutContext } from "./context";
import { PisError } from "../pis";
import { createRefund, listRefunds } from "./refunds";
import {
  paidCheckout as paidCheckoutIn,
  projectUnknown,
  refusal,
  signedWebhook,
  testContext,
  withPis,
} from "./test-context";
import { receivePisWebhook } from "./webhooks";
import { createCheckout } from "./create-checkout";
import { getCheckoutDetail } from "./checkouts";
import { reconcileRefunds } from "./refund-status";

describe.each(testDbKinds())("refunds (%s)", (kind) => {
  let ctx: CheckoutContext;
  let close: () => Promise<void>;
  beforeAll(async () => ({ ctx, close } = await testContext(kind)));
  afterAll(() => close());

  const paidCheckout = (amount?: string, currency?: string, notifyUrl?: string) =>
    paidCheckoutIn(ctx, amount, currency, notifyUrl);

  it("refunds part of a payment twice, then refuses a refund beyond what is left", async () => {
    const { checkout } = await paidCheckout("30.00");
    expect((await createRefund(checkout.id, { amount: "10.00" }, "staff", ctx)).status).toMatch(
      /started|pending|completed/,
    );
    await createRefund(checkout.id, { amount: "15.50" }, "staff", ctx);
    const err = await refusal(createRefund(checkout.id, { amount: "4.51" }, "staff", ctx));
    expect(err).toMatchObject({
      status: 422,
      code: "refund_exceeds_payment",
      errors: [{ path: "amount", message: "must be at most 4.50" }],
    });
    expect((await listRefunds(checkout.id, ctx)).map((r) => r.amount)).toEqual(["10.00", "15.50"]);
    // What is left is in the checkout itself, not only in a refusal's words.
    expect(await getCheckoutDetail(checkout.id, ctx)).toMatchObject({
      amountRefunded: "25.50",
      amountRefundable: "4.50",
    });
  });

  it("lists each checkout with what was refunded and what is left, in one query for the whole page", async () => {
    const reference = `list-${Math.random()}`;
    const { checkout: refunded } = await paidCheckout("30.00");
    await ctx.db
      .update(checkouts)
      .set({ reference: `${reference}-a` })
      .where(eq(checkouts.id, refunded.id));
    await createRefund(refunded.id, { amount: "10.00" }, "staff", ctx);
    const { checkout: untouched } = await paidCheckout("12.00");
    await ctx.db
      .update(checkouts)
      .set({ reference: `${reference}-b` })
      .where(eq(checkouts.id, untouched.id));
    const open = await createCheckout(
      {
        amount: "5.00",
        currency: "EUR",
        description: "x",
        reference: `${reference}-c`,
        returnUrl: "http://localhost/r",
      },
      ctx,
    );
    // Statements per list: the same for one checkout as for three (no query per checkout).
    let selects = 0;
    const counting = {
      ...ctx,
      db: new Proxy(ctx.db, {
        get: (db, key) => (key === "select" && selects++, Reflect.get(db, key)),
      }),
    };
    const list = await listCheckouts({ q: reference, page: 1 }, counting);
    const byId = Object.fromEntries(list.items.map((i) => [i.id, i]));
    expect(byId[refunded.id]).toMatchObject({ amountRefunded: "10.00", amountRefundable: "20.00" });
    expect(byId[untouched.id]).toMatchObject({ amountRefunded: "0.00", amountRefundable: "12.00" });
    expect(byId[open.id]).toMatchObject({ amountRefunded: "0.00", amountRefundable: "0.00" });
    // The same figures as the checkout's own answer.
    expect(byId[refunded.id]).toMatchObject(
      await getCheckoutDetail(refunded.id, ctx).then(({ amountRefunded, amountRefundable }) => ({
        amountRefunded,
        amountRefundable,
      })),
    );
    const forAll = selects;
    selects = 0;
    await listCheckouts({ q: `${reference}-a`, page: 1 }, counting);
    expect(forAll).toBeGreaterThan(0);
    expect(forAll).toBe(selects);
  });

  it("never lets refunds started at the same moment exceed the payment together", async () => {
    const { checkout } = await paidCheckout("10.00");
    const results = await Promise.allSettled(
      [1, 2, 3].map(() => createRefund(checkout.id, { amount: "4.00" }, "staff", ctx)),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(2);
  });

  it("shows the merchant a checkout with its refunds, as the refunds list does", async () => {
    const { checkout } = await paidCheckout("30.00");
    const refund = await createRefund(checkout.id, { amount: "7.50", reason: "Returned" }, "merchant-api", ctx);
    expect((await getCheckoutDetail(checkout.id, ctx)).refunds).toEqual([refund]);
    expect(await listRefunds(checkout.id, ctx)).toEqual([refund]);
  });

  it("refuses to refund a checkout that is not paid", async () => {
    const checkout = await createCheckout(
      { amount: "5.00", currency: "EUR", description: "x", reference: "x", returnUrl: "http://localhost/r" },
      ctx,
    );
    expect(await refusal(createRefund(checkout.id, { amount: "1.00" }, "staff", ctx))).toMatchObject({
      status: 409,
      code: "not_paid",
    });
    expect(await getCheckoutDetail(checkout.id, ctx)).toMatchObject({
      amountRefunded: "0.00",
      amountRefundable: "0.00",
    });
  });

  it("refuses an amount with too many decimals, naming the field", async () => {
    const { checkout } = await paidCheckout("5.00");
    expect(await refusal(createRefund(checkout.id, { amount: "1.001" }, "staff", ctx))).toMatchObject({
      status: 400,
      errors: [{ path: "amount" }],
    });
  });

  it("follows the provider's refund webhook to completed", async () => {
    const { checkout, paymentId } = await paidCheckout("8.00");
    await createRefund(checkout.id, { amount: "8.00" }, "staff", ctx);
    const refundsAtProvider = await ctx.pis.refunds.list(paymentId);
    const w = signedWebhook({
      id: String(refundsAtProvider[0]!.id),
      paymentId,
      statusGroup: "completed",
      type: "PAYMENT_REFUND",
    });
    expect(await receivePisWebhook(w.raw, w.headers, ctx)).toEqual({
      refusal: null,
      outcome: "applied",
      authentic: true,
    });
    expect((await listRefunds(checkout.id, ctx))[0]!.status).toBe("completed");
  });

  it('a refund sent twice with one Idempotency-Key, even at once and written "10" and "10.00", refunds once', async () => {
    const { checkout, paymentId } = await paidCheckout("30.00");
    let replays = 0;
    const key = { idempotencyKey: "refund-key-1", onReplay: () => replays++ };
    const [a, b] = await Promise.all([
      createRefund(checkout.id, { amount: "10" }, "merchant-api", ctx, key),
      createRefund(checkout.id, { amount: "10.00" }, "merchant-api", ctx, key),
    ]);
    expect(a.id).toBe(b.id);
    // One made it, the other answers with it and says so (Idempotent-Replayed).
    expect(replays).toBe(1);
    expect(a.amount).toBe("10.00");
    expect(await ctx.pis.refunds.list(paymentId)).toHaveLength(1);
    const again = await createRefund(checkout.id, { amount: "10.00" }, "merchant-api", ctx, {
      idempotencyKey: "refund-key-1",
    });
    expect(again.id).toBe(a.id);
    expect(
      await refusal(
        createRefund(checkout.id, { amount: "5.00" }, "merchant-api", ctx, { idempotencyKey: "refund-key-1" }),
      ),
    ).toMatchObject({
      status: 422,
      code: "idempotency_key_reused",
    });
    expect(await listRefunds(checkout.id, ctx)).toHaveLength(1);
  });

  it("the same key again while the first request's provider call is under way waits for it, not answered 'unknown'", async () => {
    const { checkout } = await paidCheckout("30.00");
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const held = withPis(ctx, "refunds", {
      create: async (paymentId, input) => {
        await gate;
        return ctx.pis.refunds.create(paymentId, input);
      },
    });
    const first = createRefund(checkout.id, { amount: "4.00" }, "merchant-api", held, {
      idempotencyKey: "in-flight-1",
    });
    await new Promise((r) => setTimeout(r, 200));
    const again = createRefund(checkout.id, { amount: "4.00" }, "merchant-api", ctx, { idempotencyKey: "in-flight-1" });
    setTimeout(release, 300);
    const [a, b] = await Promise.all([first, again]);
    expect(b.id).toBe(a.id);
    expect(b.status).not.toBe("unknown");
    expect(b.status).toBe(a.status);
  });

  it("a refund of more than half the payment sent twice at once with one key refunds once and answers both with it", async () => {
    const { checkout, paymentId } = await paidCheckout("1.94");
    const [a, b] = await Promise.all([
      createRefund(checkout.id, { amount: "1.00" }, "merchant-api", ctx, { idempotencyKey: "refund-key-big" }),
      createRefund(checkout.id, { amount: "1.00" }, "merchant-api", ctx, { idempotencyKey: "refund-key-big" }),
    ]);
    expect(b.id).toBe(a.id);
    expect(await ctx.pis.refunds.list(paymentId)).toHaveLength(1);
  });

  it("a refund asked while the provider cannot say whether refunds are allowed is answered 'try again', not 'not enabled'", async () => {
    const { checkout, paymentId } = await paidCheckout("20.00");
    const refund = (c: CheckoutContext) =>
      createRefund(checkout.id, { amount: "5.00" }, "merchant-api", c, { idempotencyKey: "refund-outage-1" });
    expect(await refusal(refund(projectUnknown(ctx)))).toMatchObject({ status: 502, code: "provider_error" });
    expect(await listRefunds(checkout.id, ctx)).toHaveLength(0);
    // The merchant's retry, once the provider answers, refunds once.
    expect((await refund(ctx)).amount).toBe("5.00");
    expect(await ctx.pis.refunds.list(paymentId)).toHaveLength(1);
  });

  /** A refund whose provider answer is lost: the call may or may not have been made. */
  function answerLost(made: boolean): CheckoutContext {
    const lost = () => new PisError({ kind: "timeout", operation: "initiatePaymentRefund" });
    return withPis(ctx, "refunds", {
      create: async (paymentId, input) => {
        if (made) await ctx.pis.refunds.create(paymentId, input);
        throw lost();
      },
    });
  }
  const later = () => ({ ...ctx, now: () => new Date(Date.now() + 5 * 60_000) });

  const refusing = () =>
    withPis(ctx, "refunds", {
      create: () =>
        Promise.reject(
          new PisError({
            kind: "http",
            operation: "initiatePaymentRefund",
            httpStatus: 400,
            name: "RefundNotPossible",
            description: "Transit account balance is too low.",
          }),
        ),
    });

  it("a refund the provider refuses is answered refund_refused with its words, not 'could not reach, try again', and frees the amount", async () => {
    const { checkout } = await paidCheckout("20.00");
    const refused = await refusal(createRefund(checkout.id, { amount: "20.00" }, "merchant-api", refusing()));
    expect(refused).toMatchObject({ code: "refund_refused", status: 422 });
    expect(refused.detail).toContain("Transit account balance is too low.");
    expect((await listRefunds(checkout.id, ctx))[0]!.status).toBe("failed");
    expect((await createRefund(checkout.id, { amount: "20.00" }, "merchant-api", ctx)).amount).toBe("20.00");
  });

  it("a refused refund asked again with its Idempotency-Key is answered refused again, never as a refund", async () => {
    const { checkout } = await paidCheckout("20.00");
    const first = await refusal(
      createRefund(checkout.id, { amount: "5.00" }, "merchant-api", refusing(), { idempotencyKey: "rf-refused" }),
    );
    expect(first).toMatchObject({ code: "refund_refused", status: 422 });
    const again = await refusal(
      createRefund(checkout.id, { amount: "5.00" }, "merchant-api", ctx, { idempotencyKey: "rf-refused" }),
    );
    expect(again).toMatchObject({ code: "refund_refused", status: 422 });
    expect(await listRefunds(checkout.id, ctx)).toMatchObject([{ amount: "5.00", status: "failed" }]);
  });

  it("a refund whose answer was lost is answered as made with its outcome unknown, not 'try again' (a retry would refund twice)", async () => {
    const { checkout } = await paidCheckout("20.00");
    const refund = await createRefund(checkout.id, { amount: "5.00" }, "merchant-api", answerLost(true));
    expect(refund).toMatchObject({ amount: "5.00", status: "unknown" });
    expect(await listRefunds(checkout.id, ctx)).toEqual([refund]);
  });

  it("a refund whose 200 answer we could not read is answered as made with its outcome unknown, never refused (a retry would refund twice)", async () => {
    const { checkout } = await paidCheckout("20.00");
    // The provider made it; its answer was a 200 whose body did not fit the refund's shape.
    const unreadable = withPis(ctx, "refunds", {
      create: async (paymentId, input) => {
        await ctx.pis.refunds.create(paymentId, input);
        throw new PisError({ kind: "parse", operation: "initiatePaymentRefund", httpStatus: 200, description: "id" });
      },
    });
    const refund = await createRefund(checkout.id, { amount: "5.00" }, "merchant-api", unreadable);
    expect(refund).toMatchObject({ amount: "5.00", status: "unknown" });
    // Still counted against the payment until reconciliation finds it.
    expect(await refusal(createRefund(checkout.id, { amount: "15.01" }, "merchant-api", ctx))).toMatchObject({
      code: "refund_exceeds_payment",
    });
    expect(await reconcileRefunds(later())).toBeGreaterThanOrEqual(1);
    expect((await listRefunds(checkout.id, ctx)).find((r) => r.id === refund.id)!.status).toMatch(/started|pending/);
  });

  it("a refund the provider answers at once as failed is answered refund_refused, again on a retry with its key, and frees the amount", async () => {
    const { checkout } = await paidCheckout("20.00", "EUR", "https://shop.example/hook");
    // A provider whose answer is the refund already failed (the sandbox always answers "started").
    const failing = withPis(ctx, "refunds", {
      create: async (paymentId, input) => ({
        id: 900_000_000 + Math.floor(Math.random() * 1e8),
        paymentId,
        amount: input.amount,
        statusGroup: "failed" as const,
      }),
    });
    const first = await refusal(
      createRefund(checkout.id, { amount: "5.00" }, "merchant-api", failing, { idempotencyKey: "rf-failed-at-once" }),
    );
    expect(first).toMatchObject({ code: "refund_refused", status: 422 });
    const again = await refusal(
      createRefund(checkout.id, { amount: "5.00" }, "merchant-api", ctx, { idempotencyKey: "rf-failed-at-once" }),
    );
    expect(again).toMatchObject({ code: "refund_refused", status: 422 });
    expect(await listRefunds(checkout.id, ctx)).toMatchObject([{ amount: "5.00", status: "failed" }]);
    const told = await ctx.db.select().from(notifications).where(eq(notifications.checkoutId, checkout.id));
    expect(told.map((n) => n.event)).toContain("refund.failed");
    expect((await createRefund(checkout.id, { amount: "20.00" }, "merchant-api", ctx)).amount).toBe("20.00");
  });

  it("a refund whose answer was lost is found in the provider's refund list, not left unknown", async () => {
    const { checkout } = await paidCheckout("20.00");
    await createRefund(checkout.id, { amount: "20.00" }, "staff", answerLost(true));
    expect((await listRefunds(checkout.id, ctx))[0]!.status).toBe("unknown");
    // Still counted: nothing more can be refunded meanwhile.
    expect(await refusal(createRefund(checkout.id, { amount: "1.00" }, "staff", ctx))).toMatchObject({
      code: "refund_exceeds_payment",
    });
    expect(await reconcileRefunds(later())).toBeGreaterThanOrEqual(1);
    expect((await listRefunds(checkout.id, ctx))[0]!.status).toMatch(/started|pending|completed/);
  });

  it("a refund the provider answers as already completed tells the merchant so, as a later webhook would", async () => {
    const { checkout } = await paidCheckout("20.00", "EUR", "https://shop.example/hook");
    // A provider that settles at once (the sandbox always answers "started" first).
    const settled = withPis(ctx, "refunds", {
      create: async (paymentId, input) => ({
        ...(await ctx.pis.refunds.create(paymentId, input)),
        statusGroup: "completed" as const,
      }),
    });
    const refund = await createRefund(checkout.id, { amount: "5.00" }, "staff", settled);
    expect(refund).toMatchObject({ amount: "5.00", status: "completed" });
    const told = await ctx.db.select().from(notifications).where(eq(notifications.checkoutId, checkout.id));
    expect(told.filter((n) => n.event === "refund.completed").map((n) => JSON.parse(n.payload).refund.id)).toEqual([
      refund.id,
    ]);
    // What is left after it, so the merchant need not ask.
    expect(JSON.parse(told.find((n) => n.event === "refund.completed")!.payload).checkout).toMatchObject({
      amountRefunded: "5.00",
      amountRefundable: "15.00",
    });
  });

  it("a refund the provider never made is marked failed after the answer window, the merchant is told, and its amount can be refunded again", async () => {
    const { checkout, paymentId } = await paidCheckout("20.00", "EUR", "https://shop.example/hook");
    await createRefund(checkout.id, { amount: "20.00" }, "staff", answerLost(false));
    expect(await reconcileRefunds(ctx)).toBe(0);
    await reconcileRefunds(later());
    const [failed] = await listRefunds(checkout.id, ctx);
    expect(failed!.status).toBe("failed");
    // The merchant, whose request got no answer, learns the outcome instead of waiting forever.
    const told = await ctx.db.select().from(notifications).where(eq(notifications.checkoutId, checkout.id));
    expect(told.filter((n) => n.event === "refund.failed").map((n) => JSON.parse(n.payload).refund.id)).toEqual([
      failed!.id,
    ]);
    // The failed refund's amount is free again.
    expect(JSON.parse(told.find((n) => n.event === "refund.failed")!.payload).checkout).toMatchObject({
      amountRefunded: "0.00",
      amountRefundable: "20.00",
    });
    await createRefund(checkout.id, { amount: "20.00" }, "staff", ctx);
    expect(await ctx.pis.refunds.list(paymentId)).toHaveLength(1);
  });

  it("a lost refund is not bound to the provider refund of a later one of the same amount whose call is still under way", async () => {
    const { checkout, paymentId } = await paidCheckout("12.50");
    const r1 = await createRefund(checkout.id, { amount: "5.00" }, "merchant-api", answerLost(false), {
      idempotencyKey: "K1",
    });
    // R2 comes 19 s after R1: R1's answer window (20 s) ends while R2's provider call is under way.
    await ctx.db
      .update(refunds)
      .set({ createdAt: new Date(Date.now() - 19_000) })
      .where(eq(refunds.id, r1.id));
    let made!: () => void;
    const madeAtProvider = new Promise<void>((resolve) => (made = resolve));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow = withPis(ctx, "refunds", {
      create: async (id, input) => {
        const res = await ctx.pis.refunds.create(id, input);
        made();
        await gate;
        return res;
      },
    });
    const r2 = createRefund(checkout.id, { amount: "5.00" }, "merchant-api", slow, { idempotencyKey: "K2" });
    await madeAtProvider;
    await reconcileRefunds({ ...ctx, now: () => new Date(Date.now() + 5_000) });
    release();
    const answered = await r2;
    expect(answered.status).toMatch(/started|pending|completed/);
    await reconcileRefunds(later());
    const atProvider = await ctx.pis.refunds.list(paymentId);
    expect(atProvider).toHaveLength(1);
    const rows = await ctx.db.select().from(refunds).where(eq(refunds.checkoutId, checkout.id));
    expect(rows.find((r) => r.id === r1.id)).toMatchObject({
      statusGroup: "failed",
      failureReason: "not_created_at_provider",
      providerRefundId: null,
    });
    expect(rows.find((r) => r.id === answered.id)!.providerRefundId).toBe(atProvider[0]!.id);
    expect((await listRefunds(checkout.id, ctx)).find((r) => r.id === answered.id)!.status).toMatch(
      /started|pending|completed/,
    );
  });

  /** A PAYMENT_REFUND delivery for one of the provider's refunds of `paymentId`, signed as the provider signs. */
  const refundWebhook = (paymentId: string, refundId: number, statusGroup = "completed") =>
    signedWebhook({ id: String(refundId), paymentId, statusGroup, type: "PAYMENT_REFUND" });

  it("a refund made at the provider, outside this shop, is recorded from its webhook, counted against the payment, and the merchant is told", async () => {
    const { checkout, paymentId } = await paidCheckout("20.00", "EUR", "https://shop.example/hook");
    // Staff refunded in the provider's own dashboard (or another system called its API): no row of ours.
    const elsewhere = await ctx.pis.refunds.create(paymentId, { amount: "6.5" });
    const w = refundWebhook(paymentId, elsewhere.id);
    expect(await receivePisWebhook(w.raw, w.headers, ctx)).toEqual({
      refusal: null,
      outcome: "applied",
      authentic: true,
    });
    const [recorded] = await listRefunds(checkout.id, ctx);
    expect(recorded).toMatchObject({ amount: "6.50", currency: "EUR", status: "completed", createdBy: "provider" });
    // The money is gone from the payment: what is left is what can still be refunded here.
    expect(await refusal(createRefund(checkout.id, { amount: "13.51" }, "staff", ctx))).toMatchObject({
      code: "refund_exceeds_payment",
      errors: [{ path: "amount", message: "must be at most 13.50" }],
    });
    const told = await ctx.db.select().from(notifications).where(eq(notifications.checkoutId, checkout.id));
    expect(told.filter((n) => n.event === "refund.completed").map((n) => JSON.parse(n.payload).refund)).toEqual([
      { id: recorded!.id, amount: "6.50", currency: "EUR" },
    ]);
    // Delivered again: the same refund, not a second one, and no second notification.
    expect((await receivePisWebhook(w.raw, w.headers, ctx)).outcome).toBe("unchanged");
    expect(await listRefunds(checkout.id, ctx)).toHaveLength(1);
    const toldAgain = await ctx.db.select().from(notifications).where(eq(notifications.checkoutId, checkout.id));
    expect(toldAgain.filter((n) => n.event === "refund.completed")).toHaveLength(1);
  });

  it("the same refund made elsewhere delivered twice at once is recorded once", async () => {
    const { checkout, paymentId } = await paidCheckout("20.00");
    const elsewhere = await ctx.pis.refunds.create(paymentId, { amount: "3.00" });
    const w = refundWebhook(paymentId, elsewhere.id);
    const outcomes = await Promise.all([1, 2, 3].map(() => receivePisWebhook(w.raw, w.headers, ctx)));
    expect(outcomes.every((o) => o.refusal === null)).toBe(true);
    expect(await listRefunds(checkout.id, ctx)).toHaveLength(1);
  });

  it("a refund webhook for a refund the provider does not list is not recorded, and is answered unknown so it comes again", async () => {
    const { checkout, paymentId } = await paidCheckout("20.00");
    const w = refundWebhook(paymentId, 987654);
    expect(await receivePisWebhook(w.raw, w.headers, ctx)).toMatchObject({
      refusal: "webhook_unknown_payment",
      outcome: "unknown_refund",
    });
    expect(await listRefunds(checkout.id, ctx)).toEqual([]);
  });

  it("a refund made elsewhere while the provider cannot list refunds is refused for now (delivered again), not dropped", async () => {
    const { checkout, paymentId } = await paidCheckout("20.00");
    const elsewhere = await ctx.pis.refunds.create(paymentId, { amount: "2.00" });
    const down = withPis(ctx, "refunds", {
      list: () => Promise.reject(new PisError({ kind: "network", operation: "getPaymentRefunds" })),
    });
    const w = refundWebhook(paymentId, elsewhere.id);
    expect(await receivePisWebhook(w.raw, w.headers, down)).toMatchObject({
      refusal: "provider_error",
      outcome: "unconfirmed_refund",
    });
    expect(await listRefunds(checkout.id, ctx)).toEqual([]);
    expect((await receivePisWebhook(w.raw, w.headers, ctx)).outcome).toBe("applied");
    expect(await listRefunds(checkout.id, ctx)).toHaveLength(1);
  });

  it("our own refund's webhook arriving before the provider's answer is written is not taken for a refund made elsewhere", async () => {
    const { checkout, paymentId } = await paidCheckout("20.00");
    let made!: (id: number) => void;
    const madeAtProvider = new Promise<number>((resolve) => (made = resolve));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow = withPis(ctx, "refunds", {
      create: async (id, input) => {
        const res = await ctx.pis.refunds.create(id, input);
        made(res.id);
        await gate;
        return res;
      },
    });
    const ours = createRefund(checkout.id, { amount: "4.00" }, "staff", slow);
    const w = refundWebhook(paymentId, await madeAtProvider);
    // Unknown for now: the provider delivers it again, and by then our row holds its id.
    expect((await receivePisWebhook(w.raw, w.headers, ctx)).refusal).toBe("webhook_unknown_payment");
    release();
    const answered = await ours;
    expect((await receivePisWebhook(w.raw, w.headers, ctx)).outcome).toBe("applied");
    expect(await listRefunds(checkout.id, ctx)).toEqual([{ ...answered, status: "completed" }]);
  });

  it("two lost refunds of one amount and one refund at the provider: it is bound to one of them, the other fails", async () => {
    const { checkout, paymentId } = await paidCheckout("12.50");
    await createRefund(checkout.id, { amount: "5.00" }, "merchant-api", answerLost(false), { idempotencyKey: "K1" });
    await createRefund(checkout.id, { amount: "5.00" }, "merchant-api", answerLost(true), { idempotencyKey: "K2" });
    await reconcileRefunds(later());
    const [atProvider] = await ctx.pis.refunds.list(paymentId);
    const rows = await ctx.db.select().from(refunds).where(eq(refunds.checkoutId, checkout.id));
    expect(rows.map((r) => r.providerRefundId).sort()).toEqual([atProvider!.id, null]);
    expect(rows.find((r) => r.providerRefundId === null)!.statusGroup).toBe("failed");
  });
});
