import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDbKinds } from "../db/testing";
import { checkoutDetailForStaff, listCheckouts } from "./backoffice";
import { checkoutFilter } from "./backoffice-filter";
import { loadCheckout } from "./checkouts";
import type { CheckoutContext } from "./context";
import { createCheckout } from "./create-checkout";
import { enqueueNotification } from "./notifications";
import { startPayment } from "./start-payment";
import { getCheckoutStatus } from "./checkout-status";
import { paymentAttempts } from "../db/schema";
import { createRefund } from "./refunds";
import { applyRefundStatus } from "./refund-status";
import { forceProviderStatus, paidCheckout, testContext } from "./test-context";
import { cancelCheckout } from "./cancel-checkout";

describe.each(testDbKinds())("the staff's view of a checkout (%s)", (kind) => {
  let ctx: CheckoutContext;
  let close: () => Promise<void>;
  beforeAll(async () => ({ ctx, close } = await testContext(kind)));
  afterAll(() => close());

  it("never shows the password of a notify URL that carries one (the notifier still uses it)", async () => {
    const checkout = await createCheckout(
      {
        amount: "10.00",
        currency: "EUR",
        description: "Order",
        reference: `bo-${Math.random().toString(36).slice(2)}`,
        returnUrl: "https://shop.test/thanks",
        notifyUrl: "https://shop:s3cret-pw@shop.test/hook",
      },
      ctx,
    );
    // A notification is addressed to it too, and the back office lists where each went.
    const row = (await loadCheckout(ctx, checkout.id))!;
    await ctx.db.transaction((tx) => enqueueNotification(tx, row, "checkout.paid", {}));
    const detail = await checkoutDetailForStaff(checkout.id, ctx);
    expect(detail?.notifyUrl).toBe("https://shop:•••@shop.test/hook");
    expect(JSON.stringify(detail)).not.toContain("s3cret-pw");
  });
});

describe.each(testDbKinds())("the merchant's list by day (%s)", (kind) => {
  let ctx: CheckoutContext;
  let close: () => Promise<void>;
  beforeAll(async () => ({ ctx, close } = await testContext(kind)));
  afterAll(() => close());

  const day = (at: Date) => at.toISOString().slice(0, 10);
  const listed = async (filter: Record<string, string>) =>
    (await listCheckouts(checkoutFilter.parse(filter), ctx)).items.map((c) => c.id);

  it("finds a checkout made one day and paid the next among what changed on the next day, and by its creation day under from and to", async () => {
    // Made a minute before midnight (UTC) by the context's clock; paid today, as the bank answers now.
    const madeAt = new Date(new Date(`${day(new Date())}T00:00:00Z`).getTime() - 60_000);
    const reference = `day-${Math.random().toString(36).slice(2)}`;
    const checkout = await createCheckout(
      {
        amount: "10.00",
        currency: "EUR",
        description: "Order",
        reference,
        returnUrl: "https://shop.test/thanks",
        expiresInMinutes: 48 * 60,
      },
      { ...ctx, now: () => madeAt },
    );
    await startPayment(
      checkout.id,
      { method: "bank", bankId: "SWEDBANK_LT_SAND", termsAccepted: true, attemptKey: `day-${reference}` },
      ctx,
    );
    const [attempt] = await ctx.db.select().from(paymentAttempts).where(eq(paymentAttempts.checkoutId, checkout.id));
    await forceProviderStatus(attempt!.providerPaymentId!, { bankStatus: "ACSC" });
    expect((await getCheckoutStatus(checkout.id, ctx)).status).toBe("paid");

    const made = day(madeAt);
    const paid = day(new Date());
    expect(await listed({ q: reference, updatedFrom: paid, updatedTo: paid })).toEqual([checkout.id]);
    expect(await listed({ q: reference, from: paid, to: paid })).toEqual([]);
    expect(await listed({ q: reference, from: made, to: made })).toEqual([checkout.id]);
    expect(await listed({ q: reference, updatedTo: made })).toEqual([]);
  });

  it("counts a refund's outcome as a change of its checkout: it is among what changed on the day of the outcome", async () => {
    const { checkout, paymentId } = await paidCheckout(ctx, "30.00");
    await createRefund(checkout.id, { amount: "5.00" }, "staff", ctx);
    const [atProvider] = await ctx.pis.refunds.list(paymentId);
    // The provider says it completed tomorrow (by the context's clock).
    const tomorrow = new Date(Date.now() + 24 * 3600_000);
    expect(await applyRefundStatus({ ...ctx, now: () => tomorrow }, paymentId, atProvider!.id, "completed")).toBe(
      "applied",
    );
    const next = day(tomorrow);
    expect(await listed({ q: checkout.reference, updatedFrom: next, updatedTo: next })).toEqual([checkout.id]);
  });
});

describe.each(testDbKinds())("the merchant's list read page after page while checkouts change (%s)", (kind) => {
  let ctx: CheckoutContext;
  let close: () => Promise<void>;
  beforeAll(async () => ({ ctx, close } = await testContext(kind)));
  afterAll(() => close());

  const make = (reference: string) =>
    createCheckout(
      { amount: "5.00", currency: "EUR", description: "Order", reference, returnUrl: "https://shop.test/thanks" },
      ctx,
    );
  const list = (filter: Record<string, string>) => listCheckouts(checkoutFilter.parse(filter), ctx);

  it("from the last id read, neither repeats a checkout made meanwhile nor skips one that left the filter", async () => {
    const run = `cur-${Math.random().toString(36).slice(2)}`;
    const made: string[] = [];
    for (let i = 0; i < 30; i++) made.push((await make(`${run}-${i}`)).id);

    // A checkout made between two reads: by page number, the first page's last row comes again.
    const first = await list({ q: run });
    expect(first.items).toHaveLength(25);
    await make(`${run}-late`);
    const next = await list({ q: run, startingAfter: first.items.at(-1)!.id });
    const read = [...first.items, ...next.items].map((c) => c.id);
    expect(new Set(read).size).toBe(read.length);
    expect(read.sort()).toEqual([...made].sort());
    expect(next.hasMore).toBe(false);

    // Three of the first page leave status=open between two reads: by page number, three are skipped.
    const open = await list({ q: run, status: "open" });
    for (const c of open.items.slice(0, 3)) await cancelCheckout(c.id, ctx);
    const rest = await list({ q: run, status: "open", startingAfter: open.items.at(-1)!.id });
    const seen = new Set([...open.items, ...rest.items].map((c) => c.id));
    expect(seen.size).toBe(31);
  });

  it("refuses a cursor that is no checkout, and one given with a page, naming the field", async () => {
    const refused = await listCheckouts(checkoutFilter.parse({ startingAfter: "co_nothing" }), ctx).catch((e) => e);
    expect(refused).toMatchObject({ code: "invalid_request", extras: { errors: [{ path: "startingAfter" }] } });
    const both = checkoutFilter.safeParse({ startingAfter: "co_x", page: "2" });
    expect(both.success ? [] : both.error.issues.map((i) => i.path.join("."))).toEqual(["page"]);
  });
});
