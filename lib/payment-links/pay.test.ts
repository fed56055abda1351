import { readFileSync } from "node:fs";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { CheckoutContext } from "../checkout/context";
import { getCheckoutDetail } from "../checkout/checkouts";
import { refusal, testContext } from "../checkout/test-context";
import { paymentLinks } from "../db/schema";
import { testDbKinds } from "../db/testing";
import { completeTestPayment, type SandboxControl } from "../test-helpers/complete-payment";
import {
  createPaymentLink,
  deactivatePaymentLink,
  getPaymentLink,
  linkCheckouts,
  paymentLinkPage,
  type CreatePaymentLinkInput,
} from "./links";
import { checkoutFromLink } from "./pay";

const fixed: CreatePaymentLinkInput = {
  title: "Piano lesson",
  currency: "EUR",
  amount: "25",
  referencePrefix: "LESSON",
};
const chosen: CreatePaymentLinkInput = {
  title: "Donation",
  description: "For the roof",
  currency: "EUR",
  payerAmount: { min: "1.00", max: "500.00", suggested: "20.00" },
  referencePrefix: "GIFT",
  payerField: { label: "Invoice number", required: true },
};

describe.each(testDbKinds())("payment links (%s)", (kind) => {
  let ctx: CheckoutContext;
  let close: () => Promise<void>;
  let sibling: Awaited<ReturnType<typeof testContext>>["sibling"];
  let sandbox: SandboxControl;
  beforeAll(async () => {
    ({ ctx, close, sibling } = await testContext(kind));
    sandbox = { pisBaseUrl: `${inject("sandboxUrl")}/platform`, controlSecret: "sandbox-control-secret" };
  });
  afterAll(() => close());

  const make = (input: CreatePaymentLinkInput) => createPaymentLink(input, ctx, "staff:test");
  const link = async (id: string) => (await getPaymentLink(ctx, id))!;

  it("refuses a link that is not whole, naming the field", async () => {
    const cases: [CreatePaymentLinkInput, string][] = [
      [{ ...fixed, payerAmount: { min: "1", max: "2" } }, "amount"],
      [{ ...chosen, payerAmount: { min: "10.00", max: "5.00" } }, "payerAmount.max"],
      [{ ...chosen, payerAmount: { min: "1.00", max: "5.00", suggested: "6.00" } }, "payerAmount.suggested"],
      [{ ...fixed, amount: "1.001" }, "amount"],
      [{ ...fixed, referencePrefix: "has space" }, "referencePrefix"],
      [{ ...fixed, endsAt: "2001-01-01T00:00:00Z" }, "endsAt"],
      [{ ...fixed, payerField: { label: "x".repeat(41), required: true } }, "payerField.label"],
    ];
    for (const [input, path] of cases) {
      const err = await refusal(make(input));
      expect(err.code).toBe("invalid_request");
      expect(err.errors?.map((e) => e.path)).toContain(path);
    }
    const strict = { ...ctx, config: { ...ctx.config, allowPrivateUrls: false } };
    const err = await refusal(createPaymentLink({ ...fixed, notifyUrl: "http://localhost/n" }, strict, "staff:test"));
    expect(err.errors?.map((e) => e.path)).toEqual(["notifyUrl"]);
  });

  it("a retried create with the same Idempotency-Key is the same link; another request under it is refused", async () => {
    let replays = 0;
    const opts = { idempotencyKey: "link-key-1", onReplay: () => replays++ };
    const first = await createPaymentLink(fixed, ctx, "api_key:a", opts);
    const again = await createPaymentLink({ ...fixed, amount: "25.00" }, ctx, "api_key:a", opts);
    expect([again.id, replays]).toEqual([first.id, 1]);
    expect((await refusal(createPaymentLink({ ...fixed, title: "Other" }, ctx, "api_key:a", opts))).code).toBe(
      "idempotency_key_reused",
    );
    // Keys are the merchant's, not an API key's: the same key from another one (a rolled key) is the same link.
    expect((await createPaymentLink(fixed, ctx, "api_key:b", opts)).id).toBe(first.id);
    // Two at once with one key: one link.
    const [x, y] = await Promise.all([
      createPaymentLink(chosen, ctx, "api_key:a", { idempotencyKey: "link-key-2" }),
      createPaymentLink(chosen, ctx, "api_key:a", { idempotencyKey: "link-key-2" }),
    ]);
    expect(x.id).toBe(y.id);
  });

  it("a link made when keys were kept per API key answers its retry after the upgrade (migration 0020)", async () => {
    const first = await createPaymentLink(fixed, ctx, "api_key:k1", { idempotencyKey: "before-upgrade" });
    const later = await createPaymentLink(chosen, ctx, "api_key:k2", { idempotencyKey: "before-upgrade-too" });
    // As the earlier version kept them: under their caller, and two API keys once sent one key.
    await ctx.db
      .update(paymentLinks)
      .set({ idempotencyKey: "api_key:k1:before-upgrade" })
      .where(eq(paymentLinks.id, first.id));
    await ctx.db
      .update(paymentLinks)
      .set({ idempotencyKey: "api_key:k2:before-upgrade", createdAt: new Date(Date.now() + 1000) })
      .where(eq(paymentLinks.id, later.id));
    const migration = new URL("../db/migrations/0020_payment_link_keys_one_scope.sql", import.meta.url);
    await ctx.db.execute(sql.raw(readFileSync(migration, "utf8")));
    let replays = 0;
    const retried = await createPaymentLink(fixed, ctx, "api_key:k3", {
      idempotencyKey: "before-upgrade",
      onReplay: () => replays++,
    });
    expect([retried.id, replays]).toEqual([first.id, 1]);
  });

  it("a payer's submission becomes an ordinary checkout of the link", async () => {
    const made = await make({ ...chosen, returnUrl: "https://shop.example/thanks" });
    expect(made).toMatchObject({
      status: "active",
      payments: 0,
      totalPaid: "0.00",
      url: `${ctx.config.appUrl}/pay/${made.slug}`,
    });

    const id = await checkoutFromLink(ctx, made, { amount: "12,5", field: " INV-77 ", locale: "lt" });
    const checkout = await getCheckoutDetail(id, ctx);
    expect(checkout).toMatchObject({
      amount: "12.50",
      currency: "EUR",
      description: "Donation",
      locale: "lt",
      returnUrl: "https://shop.example/thanks",
      metadata: { "Invoice number": "INV-77" },
    });
    expect(checkout.reference).toMatch(/^GIFT-[A-Z0-9]{10}$/);
    expect((await linkCheckouts(ctx.db, made.id)).map((c) => c.id)).toEqual([id]);

    const fixedLink = await make(fixed);
    const other = await getCheckoutDetail(await checkoutFromLink(ctx, fixedLink, { amount: "999" }), ctx);
    expect(other.amount).toBe("25.00");
    expect(other.returnUrl).toBe(fixedLink.url);
  });

  it("refuses an amount outside the range or a field too long, naming the limit, and makes nothing", async () => {
    const made = await make(chosen);
    for (const [input, path, message] of [
      [{ amount: "0.50", field: "A" }, "amount", "must be from 1.00 to 500.00"],
      [{ amount: "500.01", field: "A" }, "amount", "must be from 1.00 to 500.00"],
      [{ amount: "lots", field: "A" }, "amount", 'must be a decimal amount like "12.50"'],
      // In range, but a cent's fraction: the format is what is wrong, not the range.
      [{ amount: "4.505", field: "A" }, "amount", 'must be a decimal amount like "12.50"'],
      [{ amount: "5", field: "" }, "field", "is required"],
      [{ amount: "5", field: "x".repeat(141) }, "field", "must be at most 140 characters"],
    ] as const) {
      const err = await refusal(checkoutFromLink(ctx, made, input));
      expect(err.code).toBe("invalid_request");
      expect(err.errors).toEqual([{ path, message }]);
    }
    expect(await linkCheckouts(ctx.db, made.id)).toEqual([]);
  });

  it("a deactivated or ended link takes no payment", async () => {
    const made = await make(fixed);
    const gone = await deactivatePaymentLink(ctx, made.id);
    expect(gone.status).toBe("deactivated");
    expect((await refusal(checkoutFromLink(ctx, gone, {}))).code).toBe("payment_link_ended");
    // Checked again under the link's lock, not only from what the page read.
    expect((await refusal(checkoutFromLink(ctx, made, {}))).code).toBe("payment_link_ended");

    // By its slug (as GET /api/payment-links/{slug} finds it): deactivated too, not only said to be.
    const bySlug = await make(fixed);
    expect((await deactivatePaymentLink(ctx, bySlug.slug)).status).toBe("deactivated");
    expect((await refusal(checkoutFromLink(ctx, bySlug, {}))).code).toBe("payment_link_ended");

    const ending = await make({ ...fixed, endsAt: new Date(Date.now() + 60_000).toISOString() });
    const later = { ...ctx, now: () => new Date(Date.now() + 120_000) };
    expect((await getPaymentLink(later, ending.id))?.status).toBe("ended");
    expect((await refusal(checkoutFromLink(later, ending, {}))).code).toBe("payment_link_ended");
    expect(await linkCheckouts(ctx.db, ending.id)).toEqual([]);
  });

  it("two payers at once for a link's last payment: one checkout, the other is told to try again", async () => {
    const made = await make({ ...fixed, maxPayments: 1 });
    const other = await sibling();
    try {
      const results = await Promise.allSettled([
        checkoutFromLink(ctx, made, {}),
        checkoutFromLink(other.ctx, made, {}),
      ]);
      const made1 = results.filter((r) => r.status === "fulfilled");
      const refused = results.filter((r) => r.status === "rejected");
      expect(made1).toHaveLength(1);
      expect(refused.map((r) => (r as PromiseRejectedResult).reason.code)).toEqual(["payment_link_busy"]);
      expect(await linkCheckouts(ctx.db, made.id)).toHaveLength(1);

      // Paid: the link is used up, for good.
      const [first] = await linkCheckouts(ctx.db, made.id);
      await completeTestPayment(ctx, sandbox, first!.id, { outcome: "paid" });
      const used = await link(made.id);
      expect(used).toMatchObject({ status: "used_up", payments: 1, totalPaid: "25.00" });
      expect((await refusal(checkoutFromLink(other.ctx, used, {}))).code).toBe("payment_link_ended");
    } finally {
      await other.close();
    }
  });

  it("a place held by a payer who walked away, or whose payment failed, comes back", async () => {
    const made = await make({ ...fixed, maxPayments: 1 });
    const first = await checkoutFromLink(ctx, made, {});
    expect((await refusal(checkoutFromLink(ctx, made, {}))).code).toBe("payment_link_busy");
    // A failed payment may be tried again on its checkout until it ends: the place stays held.
    await completeTestPayment(ctx, sandbox, first, { outcome: "failed" });
    expect((await refusal(checkoutFromLink(ctx, made, {}))).code).toBe("payment_link_busy");
    // Limited links' checkouts end in 15 minutes; two more for a start under way at that moment.
    const soon = { ...ctx, now: () => new Date(Date.now() + 16 * 60_000) };
    expect((await refusal(checkoutFromLink(soon, made, {}))).code).toBe("payment_link_busy");
    const later = { ...ctx, now: () => new Date(Date.now() + 18 * 60_000) };
    const second = await checkoutFromLink(later, made, {});
    expect(second).not.toBe(first);
  });

  it("lists links with their payments and what they took", async () => {
    const made = await make({ ...fixed, title: "Listed" });
    const paid = await checkoutFromLink(ctx, made, {});
    await completeTestPayment(ctx, sandbox, paid, { outcome: "paid" });
    await checkoutFromLink(ctx, made, {});
    const listed = (await paymentLinkPage(ctx, 1)).items.find((l) => l.id === made.id);
    expect(listed).toMatchObject({ title: "Listed", payments: 1, totalPaid: "25.00", status: "active" });
    expect(await getPaymentLink(ctx, made.slug)).toMatchObject({ id: made.id });
  });
});
