import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { notifications, statusEvents } from "../db/schema";
import { testDbKinds } from "../db/testing";
import { cancelCheckout } from "./cancel-checkout";
import { getCheckoutDetail } from "./checkouts";
import type { CheckoutContext } from "./context";
import { createCheckout } from "./create-checkout";
import { startPayment } from "./start-payment";
import { forceProviderStatus, refusal, testContext, withPis } from "./test-context";
import { getCheckoutStatus } from "./checkout-status";

const order = (reference: string) => ({
  amount: "30.00",
  currency: "EUR",
  description: "Order to cancel",
  reference,
  returnUrl: "https://shop.test/thanks",
});
const bankPay = (attemptKey: string) => ({
  method: "bank" as const,
  bankId: "SEB_LT_SAND",
  termsAccepted: true,
  attemptKey,
});

describe.each(testDbKinds())("the merchant cancels a checkout (%s)", (kind) => {
  let ctx: CheckoutContext;
  let close: () => Promise<void>;
  beforeAll(async () => ({ ctx, close } = await testContext(kind)));
  afterAll(() => close());

  it("an open checkout: the payer can no longer pay it, and cancelling again answers the same", async () => {
    const checkout = await createCheckout(order("cancel-open"), ctx);
    const cancelled = await cancelCheckout(checkout.id, ctx);
    expect(cancelled).toMatchObject({ id: checkout.id, status: "cancelled" });
    expect((await refusal(startPayment(checkout.id, bankPay("cancel-open-1"), ctx))).code).toBe("checkout_cancelled");
    expect(await cancelCheckout(checkout.id, ctx)).toEqual(cancelled);
    const history = await ctx.db.select().from(statusEvents).where(eq(statusEvents.checkoutId, checkout.id));
    expect(history.map((e) => [e.fromStatus, e.toStatus, e.source])).toContainEqual(["open", "cancelled", "merchant"]);
  });

  it("staff cancelling from the back office are recorded as staff, the payment they stop too", async () => {
    const checkout = await createCheckout(order("cancel-staff"), ctx);
    await startPayment(checkout.id, bankPay("cancel-staff-1"), ctx);
    expect(await cancelCheckout(checkout.id, ctx, "staff")).toMatchObject({ status: "cancelled" });
    const history = await ctx.db.select().from(statusEvents).where(eq(statusEvents.checkoutId, checkout.id));
    expect(history.slice(-2).map((e) => [e.fromStatus, e.toStatus, e.source])).toEqual([
      ["processing", "open", "staff"],
      ["open", "cancelled", "staff"],
    ]);
    // The merchant reads who did it in the checkout's timeline.
    expect((await getCheckoutDetail(checkout.id, ctx)).timeline.at(-1)).toMatchObject({ source: "staff" });
  });

  it("refuses a paid checkout, an expired one and an unknown one", async () => {
    const paid = await createCheckout(order("cancel-paid"), ctx);
    const started = await startPayment(paid.id, bankPay("cancel-paid-1"), ctx);
    await forceProviderStatus(new URL(started.confirmLink).pathname.split("/")[2]!, { bankStatus: "ACSC" });
    await getCheckoutStatus(paid.id, ctx);
    expect((await refusal(cancelCheckout(paid.id, ctx))).code).toBe("already_paid");

    const expired = await createCheckout({ ...order("cancel-expired"), expiresInMinutes: 1 }, ctx);
    const later = { ...ctx, now: () => new Date(Date.now() + 2 * 60_000) };
    expect((await refusal(cancelCheckout(expired.id, later))).code).toBe("checkout_expired");
    expect((await refusal(cancelCheckout("co_nope", ctx))).code).toBe("checkout_not_found");
  });

  it("stops a payment the payer has not authorised at the bank; if they still approve it, the money is seen", async () => {
    const checkout = await createCheckout({ ...order("cancel-started"), notifyUrl: "https://shop.test/notify" }, ctx);
    const started = await startPayment(checkout.id, bankPay("cancel-started-1"), ctx);
    expect(await cancelCheckout(checkout.id, ctx)).toMatchObject({ status: "cancelled" });
    expect((await refusal(startPayment(checkout.id, bankPay("cancel-started-2"), ctx))).code).toBe(
      "checkout_cancelled",
    );
    // A tab left open at the bank: the payer approves after all. The money moved, so it is paid.
    const paymentId = new URL(started.confirmLink).pathname.split("/")[2]!;
    await forceProviderStatus(paymentId, { bankStatus: "ACSC" });
    await getCheckoutStatus(checkout.id, ctx);
    expect((await getCheckoutDetail(checkout.id, ctx)).status).toBe("paid");
    const sent = await ctx.db.select().from(notifications).where(eq(notifications.checkoutId, checkout.id));
    expect(sent.map((n) => n.event)).toContain("checkout.paid");
  });

  it("a payer's page following the payment never sees the checkout open again while it is cancelled", async () => {
    const checkout = await createCheckout(order("cancel-seen"), ctx);
    await startPayment(checkout.id, bankPay("cancel-seen-1"), ctx);
    // What the payer's page reads (it asks every 3 s) after each of the cancel's commits.
    const seen: string[] = [];
    const watched = {
      ...ctx,
      db: new Proxy(ctx.db, {
        get(db, key) {
          if (key !== "transaction") return Reflect.get(db, key);
          return async (...args: Parameters<typeof db.transaction>) => {
            const done = await db.transaction(...args);
            seen.push((await getCheckoutStatus(checkout.id, ctx)).status);
            return done;
          };
        },
      }),
    };
    expect(await cancelCheckout(checkout.id, watched)).toMatchObject({ status: "cancelled" });
    // Seen open, the page would offer the payer another bank for an order the merchant cancelled.
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.filter((status) => status !== "processing" && status !== "cancelled")).toEqual([]);
  });

  it("refuses while the payer's payment is authorised at the bank, and leaves the checkout as it was", async () => {
    const checkout = await createCheckout(order("cancel-pending"), ctx);
    const started = await startPayment(checkout.id, bankPay("cancel-pending-1"), ctx);
    await forceProviderStatus(new URL(started.confirmLink).pathname.split("/")[2]!, { bankStatus: "ACSP" });
    expect((await refusal(cancelCheckout(checkout.id, ctx))).code).toBe("payment_authorised");
    expect((await getCheckoutDetail(checkout.id, ctx)).status).toBe("processing");
  });

  it("a payment the bank has meanwhile rejected (no webhook yet) is nothing to stop: the checkout is cancelled and takes no payment", async () => {
    const checkout = await createCheckout(order("cancel-rejected"), ctx);
    const started = await startPayment(checkout.id, bankPay("cancel-rejected-1"), ctx);
    await forceProviderStatus(new URL(started.confirmLink).pathname.split("/")[2]!, { bankStatus: "RJCT" });
    expect((await cancelCheckout(checkout.id, ctx)).status).toBe("cancelled");
    expect((await refusal(startPayment(checkout.id, bankPay("cancel-rejected-2"), ctx))).code).toBe(
      "checkout_cancelled",
    );
  });

  it("a payment the bank has meanwhile completed (no webhook yet) is refused as paid, not as a payment to wait for", async () => {
    const checkout = await createCheckout(order("cancel-completed"), ctx);
    const started = await startPayment(checkout.id, bankPay("cancel-completed-1"), ctx);
    await forceProviderStatus(new URL(started.confirmLink).pathname.split("/")[2]!, { bankStatus: "ACSC" });
    expect((await refusal(cancelCheckout(checkout.id, ctx))).code).toBe("already_paid");
    expect((await getCheckoutDetail(checkout.id, ctx)).status).toBe("paid");
  });

  it("a payment start that read the checkout before it was cancelled does not reach the provider", async () => {
    const checkout = await createCheckout(order("cancel-race"), ctx);
    let initiated = 0;
    // The start checks the bank at the provider after reading the checkout: the merchant cancels then.
    const racing = withPis(ctx, "banks", {
      get: async (id) => {
        await cancelCheckout(checkout.id, ctx);
        return ctx.pis.banks.get(id);
      },
    });
    const counted = withPis(racing, "payments", {
      initiate: (...args) => {
        initiated++;
        return ctx.pis.payments.initiate(...args);
      },
    });
    expect((await refusal(startPayment(checkout.id, bankPay("cancel-race-1"), counted))).code).toBe(
      "checkout_cancelled",
    );
    expect(initiated).toBe(0);
    expect((await getCheckoutDetail(checkout.id, ctx)).attempts).toEqual([]);
  });
});
