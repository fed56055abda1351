import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDbKinds } from "../db/testing";
import type { CheckoutContext } from "./context";
import { getCheckoutStatus } from "./checkout-status";
import { createCheckout } from "./create-checkout";
import { cancelCheckout } from "./cancel-checkout";
import { getCheckoutDetail } from "./checkouts";
import { abandonPayment, takeBackAuthorised } from "./payments";
import { startPayment } from "./start-payment";
import { forceProviderStatus, refusal, testContext, withPis } from "./test-context";
import { PEER_HEADER } from "../http/client-address";
import { returnReadHits } from "../http/rate-limit";
import { cameBackFrom } from "./return-visit";

describe.each(testDbKinds())("the status the landing page reads (%s)", (kind) => {
  let ctx: CheckoutContext;
  let close: () => Promise<void>;
  beforeAll(async () => ({ ctx, close } = await testContext(kind)));
  afterAll(() => close());

  /** Starts a payment of the checkout at the sandbox's Swedbank under `attemptKey`. */
  const payOn = (checkoutId: string, attemptKey: string, c = ctx) =>
    startPayment(checkoutId, { method: "bank", bankId: "SWEDBANK_LT_SAND", termsAccepted: true, attemptKey }, c);
  const paymentIdOf = (confirmLink: string) => new URL(confirmLink).pathname.split("/").pop()!;

  const order = () => ({
    amount: "24.90",
    currency: "EUR",
    description: "Order",
    reference: `s-${Math.random().toString(36).slice(2)}`,
    returnUrl: "https://shop.test/thanks",
  });

  it("a payment the payer stopped, then cancelled at the bank, is no failure of the checkout: still open, no reason", async () => {
    const checkout = await createCheckout(order(), ctx);
    const { confirmLink } = await payOn(checkout.id, "key-stopped-1");
    await abandonPayment(checkout.id, ctx);
    const paymentId = paymentIdOf(confirmLink);
    await forceProviderStatus(paymentId, { bankStatus: "CANC" });

    const status = await getCheckoutStatus(checkout.id, ctx);
    expect(status).toMatchObject({ status: "open", final: false, failureReason: null });
    expect(status.attempt).toMatchObject({ statusGroup: "failed", abandoned: true });
  });

  it("a payment stopped after the checkout's time ended leaves it expired for the merchant too, not open again", async () => {
    const checkout = await createCheckout({ ...order(), expiresInMinutes: 1 }, ctx);
    await payOn(checkout.id, "key-stopped-late");
    const later = { ...ctx, now: () => new Date(Date.now() + 2 * 60_000) };
    await abandonPayment(checkout.id, later);
    // The merchant's read too, not only the landing page's, before the worker's next round.
    expect((await getCheckoutDetail(checkout.id, later)).status).toBe("expired");
    expect(await getCheckoutStatus(checkout.id, later, { askProvider: false })).toMatchObject({
      status: "expired",
      final: true,
    });
  });

  it("a burst of landing loads naming a payment the payer came back from asks the provider a bounded number of times; the payer just back is still answered by it", async () => {
    const checkout = await createCheckout(order(), ctx);
    const pay = (attemptKey: string) => payOn(checkout.id, attemptKey);
    const stopped = await pay("key-burst-1");
    await abandonPayment(checkout.id, ctx);
    await pay("key-burst-2");
    const stoppedPayment = paymentIdOf(stopped.confirmLink);
    // Reads of the payment the payer came back from (the one in progress has its own gap).
    let reads = 0;
    const counting = withPis(ctx, "payments", {
      status: (id: string) => {
        if (id === stoppedPayment) reads++;
        return ctx.pis.payments.status(id);
      },
    });
    const address = `203.0.113.${Math.floor(Math.random() * 250)}`;
    const load = async (at: number) => {
      const c = { ...counting, now: () => new Date(at) };
      const headers = new Headers({ [PEER_HEADER]: address });
      const returnedFrom = await cameBackFrom(
        c,
        checkout.id,
        { attempt: stopped.attemptId },
        returnReadHits(stopped.attemptId, headers),
      );
      return getCheckoutStatus(checkout.id, c, { returnedFrom, askProvider: true });
    };
    const start = Date.now() + 10_000;
    // The payer comes back: the provider is asked about the payment they came back from at once.
    await load(start);
    const first = reads;
    expect(first).toBeGreaterThanOrEqual(1);
    // Fifty reloads within the same second ask it about that payment no more.
    for (let i = 0; i < 50; i++) await load(start + 10 * i);
    expect(reads - first).toBeLessThanOrEqual(1);
    // A reload loop of a minute, one every 200 ms: at most one read per two seconds, fewer past the
    // address's limit, however many loads.
    const before = reads;
    for (let i = 0; i < 300; i++) await load(start + 3_000 + 200 * i);
    expect(reads - before).toBeLessThanOrEqual(30);
  });

  it("a payment the payer stopped and then approved after another failed is seen when they come back from it: processing, then its outcome, and no payment starts meanwhile", async () => {
    const checkout = await createCheckout(order(), ctx);
    const pay = (attemptKey: string) => payOn(checkout.id, attemptKey);
    // Each read a few seconds after the last: the provider is asked at most once in two seconds.
    let clock = Date.now();
    const reading = () => {
      const at = new Date((clock += 5_000));
      return { ...ctx, now: () => at };
    };

    const stopped = await pay("key-approved-late-1");
    await abandonPayment(checkout.id, ctx);
    const other = await pay("key-approved-late-2");
    await forceProviderStatus(paymentIdOf(other.confirmLink), { bankStatus: "RJCT" });
    expect((await getCheckoutStatus(checkout.id, reading())).status).toBe("failed");

    // In a tab left open, the payer looks at the payment they had stopped (it is asked about),
    // approves it a moment later, and comes back from it.
    await getCheckoutStatus(checkout.id, reading(), { returnedFrom: stopped.attemptId });
    clock -= 4_000;
    await forceProviderStatus(paymentIdOf(stopped.confirmLink), { bankStatus: "ACTC" });
    expect(await getCheckoutStatus(checkout.id, reading(), { returnedFrom: stopped.attemptId })).toMatchObject({
      status: "processing",
      final: false,
      failureReason: null,
      attempt: { id: stopped.attemptId, statusGroup: "pending" },
    });
    expect((await refusal(pay("key-approved-late-3"))).code).toBe("payment_in_progress");

    // The bank then rejects it after all: the checkout follows it to failed, and may be paid again.
    await forceProviderStatus(paymentIdOf(stopped.confirmLink), { bankStatus: "RJCT" });
    expect(await getCheckoutStatus(checkout.id, reading())).toMatchObject({
      status: "failed",
      attempt: { id: stopped.attemptId, statusGroup: "failed" },
    });
    await pay("key-approved-late-4");
    expect((await getCheckoutStatus(checkout.id, reading(), { askProvider: false })).status).toBe("processing");
  });

  it("a stopped payment approved while another was under way is taken back once that one fails: no third payment, no cancel", async () => {
    const checkout = await createCheckout(order(), ctx);
    const pay = (attemptKey: string) => payOn(checkout.id, attemptKey);
    const stopped = await pay("key-while-other-1");
    await abandonPayment(checkout.id, ctx);
    const other = await pay("key-while-other-2");
    // Approved in the tab left open while the other payment is at the bank: seen, but not yet the checkout's.
    await forceProviderStatus(paymentIdOf(stopped.confirmLink), { bankStatus: "ACTC" });
    await getCheckoutStatus(checkout.id, ctx, { returnedFrom: stopped.attemptId });
    await forceProviderStatus(paymentIdOf(other.confirmLink), { bankStatus: "CANC" });
    await new Promise((r) => setTimeout(r, 2_100));
    expect((await getCheckoutStatus(checkout.id, ctx)).status).toBe("failed");

    expect((await refusal(pay("key-while-other-3"))).code).toBe("payment_in_progress");
    expect((await refusal(cancelCheckout(checkout.id, ctx))).code).toBe("payment_authorised");
    expect(await getCheckoutStatus(checkout.id, ctx, { askProvider: false })).toMatchObject({
      status: "processing",
      attempt: { id: stopped.attemptId, statusGroup: "pending" },
    });
  });

  it("a stopped payment approved with nothing said of it is asked about before another payment starts", async () => {
    const checkout = await createCheckout(order(), ctx);
    const pay = (attemptKey: string) => payOn(checkout.id, attemptKey);
    const stopped = await pay("key-unsaid-1");
    await abandonPayment(checkout.id, ctx);
    await forceProviderStatus(paymentIdOf(stopped.confirmLink), { bankStatus: "ACSP" });
    expect((await refusal(pay("key-unsaid-2"))).code).toBe("payment_in_progress");
    expect((await getCheckoutStatus(checkout.id, ctx, { askProvider: false })).status).toBe("processing");
  });

  it("the oldest of four stopped payments, approved in a forgotten tab, is asked about before another payment starts", async () => {
    const checkout = await createCheckout(order(), ctx);
    const pay = (attemptKey: string) => payOn(checkout.id, attemptKey);
    const stopped = [];
    for (let i = 1; i <= 4; i++) {
      stopped.push(await pay(`key-four-${i}`));
      await abandonPayment(checkout.id, ctx);
    }
    await forceProviderStatus(paymentIdOf(stopped[0]!.confirmLink), { bankStatus: "ACSP" });
    expect((await refusal(pay("key-four-5"))).code).toBe("payment_in_progress");
    expect(await getCheckoutStatus(checkout.id, ctx, { askProvider: false })).toMatchObject({
      status: "processing",
      attempt: { id: stopped[0]!.attemptId, statusGroup: "pending" },
    });
  });

  it("a stopped payment older than a confirm link lives is not asked about: the bank no longer holds it", async () => {
    const checkout = await createCheckout(order(), ctx);
    const stopped = await payOn(checkout.id, "key-week-old-1");
    await abandonPayment(checkout.id, ctx);
    const stoppedPayment = paymentIdOf(stopped.confirmLink);
    let asked = 0;
    const aWeekOn = {
      ...withPis(ctx, "payments", {
        status: (id) => {
          if (id === stoppedPayment) asked++;
          return ctx.pis.payments.status(id);
        },
      }),
      now: () => new Date(Date.now() + 8 * 24 * 3600_000),
    };
    await takeBackAuthorised(aWeekOn, checkout.id, "initiation");
    expect(asked).toBe(0);
    await takeBackAuthorised({ ...aWeekOn, now: () => new Date() }, checkout.id, "initiation");
    expect(asked).toBe(1);
  });

  it("a provider that hangs when asked about a stopped payment holds a new payment for seconds, not minutes", async () => {
    const checkout = await createCheckout(order(), ctx);
    const pay = (attemptKey: string, c = ctx) => payOn(checkout.id, attemptKey, c);
    await pay("key-hang-1");
    await abandonPayment(checkout.id, ctx);
    const hanging = withPis(ctx, "payments", { status: () => new Promise(() => {}) });
    const started = Date.now();
    await pay("key-hang-2", hanging);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("a payment the payer stopped and then approved at once pays the checkout when they come back from it", async () => {
    const checkout = await createCheckout(order(), ctx);
    const pay = (attemptKey: string) => payOn(checkout.id, attemptKey);
    const stopped = await pay("key-approved-now-1");
    await abandonPayment(checkout.id, ctx);
    const other = await pay("key-approved-now-2");
    await forceProviderStatus(paymentIdOf(other.confirmLink), { bankStatus: "RJCT" });
    await getCheckoutStatus(checkout.id, ctx);
    await forceProviderStatus(paymentIdOf(stopped.confirmLink), { bankStatus: "ACSC" });
    expect(await getCheckoutStatus(checkout.id, ctx, { returnedFrom: stopped.attemptId })).toMatchObject({
      status: "paid",
      final: true,
    });
  });

  it("asks the provider once for twenty status reads that arrive together, however many tabs and instances poll", async () => {
    const checkout = await createCheckout(order(), ctx);
    await payOn(checkout.id, "key-polled-1");
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
