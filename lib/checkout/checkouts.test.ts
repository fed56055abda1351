import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { idempotencyKeys } from "../db/schema";
import { testDbKinds } from "../db/testing";
import type { CheckoutContext } from "./context";
import { CheckoutError } from "./errors";
import { testContext } from "./test-context";
import { createCheckout } from "./create-checkout";

const order = {
  amount: "19.90",
  currency: "EUR",
  description: "Order 7",
  reference: "order-7",
  returnUrl: "https://shop.example/thanks",
};

describe.each(testDbKinds())("creating checkouts (%s)", (kind) => {
  let ctx: CheckoutContext;
  let close: () => Promise<void>;
  beforeAll(async () => ({ ctx, close } = await testContext(kind)));
  afterAll(() => close());

  it("gives each checkout an unguessable id and a 24-hour life by default", async () => {
    const a = await createCheckout(order, ctx);
    const b = await createCheckout(order, ctx);
    expect(a.id).not.toBe(b.id);
    expect(a.id).toMatch(/^co_[A-Za-z0-9_-]{24}$/); // 18 random bytes = 144 bits
    expect(new Date(a.expiresAt).getTime() - new Date(a.createdAt).getTime()).toBe(24 * 3600_000);
  });

  it("returns the same checkout for a retried request with the same Idempotency-Key", async () => {
    const [a, b] = await Promise.all([
      createCheckout(order, ctx, { idempotencyKey: "retry-1" }),
      createCheckout(order, ctx, { idempotencyKey: "retry-1" }),
    ]);
    expect(a.id).toBe(b.id);
    const c = await createCheckout(order, ctx, { idempotencyKey: "retry-1" });
    expect(c.id).toBe(a.id);
  });

  it("refuses the same Idempotency-Key with a different request", async () => {
    await createCheckout(order, ctx, { idempotencyKey: "retry-2" });
    const err = await createCheckout({ ...order, amount: "20.00" }, ctx, { idempotencyKey: "retry-2" }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(CheckoutError);
    expect(err).toMatchObject({ status: 422, code: "idempotency_key_reused" });
  });

  it("refuses plain-http return and notify URLs except on the merchant's own machine", async () => {
    const err = (await createCheckout(
      { ...order, returnUrl: "http://shop.example/thanks", notifyUrl: "javascript:alert(1)" },
      ctx,
    ).catch((e: unknown) => e)) as CheckoutError;
    expect(err.errors?.map((e) => e.path).sort()).toEqual(["notifyUrl", "returnUrl"]);
    await expect(createCheckout({ ...order, returnUrl: "http://localhost:8080/thanks" }, ctx)).resolves.toHaveProperty(
      "id",
    );
  });

  it("with a real provider, refuses return and notify URLs on this machine or a private network (SSRF), naming each, and writes nothing", async () => {
    const strict = { ...ctx, config: { ...ctx.config, allowPrivateUrls: false } };
    const attempts: [string, string][] = [
      ["http://localhost:8080/thanks", "https://169.254.169.254/latest/meta-data"],
      ["https://10.0.0.5/thanks", "https://shop-backend/notify"],
    ];
    for (const [returnUrl, notifyUrl] of attempts) {
      const err = (await createCheckout({ ...order, reference: "ssrf", returnUrl, notifyUrl }, strict).catch(
        (e: unknown) => e,
      )) as CheckoutError;
      expect(err).toMatchObject({ status: 400, code: "invalid_request" });
      expect(err.errors?.map((e) => e.path).sort()).toEqual(["notifyUrl", "returnUrl"]);
    }
    const { checkouts } = await import("../db/schema");
    const { eq } = await import("drizzle-orm");
    expect(await ctx.db.select().from(checkouts).where(eq(checkouts.reference, "ssrf"))).toEqual([]);
    await expect(createCheckout({ ...order, notifyUrl: "https://shop.example/hooks" }, strict)).resolves.toHaveProperty(
      "id",
    );
  });

  it("keeps the amount exact and canonical", async () => {
    expect((await createCheckout({ ...order, amount: "7.5" }, ctx)).amount).toBe("7.50");
    expect((await createCheckout({ ...order, amount: "1234567.89" }, ctx)).amount).toBe("1234567.89");
  });

  it("never lets a checkout outlive the provider's seven-day payment link", async () => {
    const err = (await createCheckout({ ...order, expiresInMinutes: 7 * 24 * 60 }, ctx).catch(
      (e: unknown) => e,
    )) as CheckoutError;
    expect(err.errors).toEqual([expect.objectContaining({ path: "expiresInMinutes" })]);
  });

  const refusedPaths = async (over: Record<string, unknown>) => {
    const err = (await createCheckout({ ...order, ...over } as typeof order, ctx).catch(
      (e: unknown) => e,
    )) as CheckoutError;
    expect(err).toBeInstanceOf(CheckoutError);
    return err.errors?.map((e) => [e.path, e.message]);
  };

  it("keeps the merchant's metadata and returns it with the checkout; over Stripe's limits it names the field", async () => {
    const metadata = { orderId: "A-1001", channel: "web" };
    const made = await createCheckout({ ...order, metadata }, ctx);
    expect(made.metadata).toEqual(metadata);
    expect((await createCheckout(order, ctx)).metadata).toEqual({});

    const many = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, "v"]));
    expect(await refusedPaths({ metadata: many })).toEqual([["metadata", "at most 20 keys"]]);
    const longKey = "k".repeat(41);
    expect(await refusedPaths({ metadata: { [longKey]: "v" } })).toEqual([
      [`metadata.${longKey}`, "keys must be 1 to 40 characters"],
    ]);
    expect(await refusedPaths({ metadata: { note: "x".repeat(501) } })).toEqual([
      ["metadata.note", "must be at most 500 characters"],
    ]);
    expect(await refusedPaths({ metadata: { n: 1 } })).toEqual([["metadata.n", expect.any(String)]]);
  });

  it("keeps line items that add up to the amount, exactly; others are refused naming the line or the sum", async () => {
    const lineItems = [
      { name: "Book", quantity: 2, unitAmount: "7.45" },
      { name: "Mug", quantity: 1, unitAmount: "5" },
    ];
    const made = await createCheckout({ ...order, lineItems }, ctx);
    expect(made.lineItems).toEqual([
      { name: "Book", quantity: 2, unitAmount: "7.45" },
      { name: "Mug", quantity: 1, unitAmount: "5.00" },
    ]);
    expect((await createCheckout(order, ctx)).lineItems).toEqual([]);

    const short = [{ name: "Book", quantity: 2, unitAmount: "7.44" }, lineItems[1]];
    expect(await refusedPaths({ lineItems: short })).toEqual([
      ["lineItems", "must add up to the amount, 19.90: they add up to 19.88"],
    ]);
    expect(await refusedPaths({ lineItems: [{ name: "Book", quantity: 1, unitAmount: "19.901" }] })).toEqual([
      ["lineItems.0.unitAmount", expect.stringContaining("decimal")],
    ]);
    expect(await refusedPaths({ lineItems: [{ name: "Book", quantity: 0, unitAmount: "19.90" }] })).toEqual([
      ["lineItems.0.quantity", expect.any(String)],
    ]);
    expect(await refusedPaths({ lineItems: [] })).toEqual([["lineItems", expect.any(String)]]);
  });

  it("an Idempotency-Key covers the metadata and line items: another value is another request", async () => {
    const lines = [{ name: "Book", quantity: 1, unitAmount: "19.9" }];
    const a = await createCheckout({ ...order, lineItems: lines }, ctx, { idempotencyKey: "lines-1" });
    // "19.9" and "19.90" are the same line.
    const b = await createCheckout({ ...order, lineItems: [{ ...lines[0]!, unitAmount: "19.90" }] }, ctx, {
      idempotencyKey: "lines-1",
    });
    expect(b.id).toBe(a.id);
    const other = await createCheckout({ ...order, lineItems: lines, metadata: { a: "b" } }, ctx, {
      idempotencyKey: "lines-1",
    }).catch((e: unknown) => (e as CheckoutError).code);
    expect(other).toBe("idempotency_key_reused");
  });

  it("a retry whose metadata lists its keys in another order is the same request, replayed", async () => {
    let replays = 0;
    const onReplay = () => replays++;
    const a = await createCheckout({ ...order, metadata: { orderId: "7", customer: "c-1" } }, ctx, {
      idempotencyKey: "metadata-order-1",
      onReplay,
    });
    const b = await createCheckout({ ...order, metadata: { customer: "c-1", orderId: "7" } }, ctx, {
      idempotencyKey: "metadata-order-1",
      onReplay,
    });
    expect(b.id).toBe(a.id);
    expect(replays).toBe(1);
  });

  it("a key stored before the hash was canonical still answers its retry", async () => {
    const request = { ...order, metadata: { orderId: "7", customer: "c-1" } };
    const a = await createCheckout(request, ctx, { idempotencyKey: "metadata-order-2" });
    // As the hash was written until 2026-12-07: over the parsed request, its keys as sent.
    const asSent = { ...order, metadata: request.metadata };
    await ctx.db
      .update(idempotencyKeys)
      .set({ requestHash: createHash("sha256").update(JSON.stringify(asSent)).digest("hex") })
      .where(eq(idempotencyKeys.key, "metadata-order-2"));
    const b = await createCheckout(request, ctx, { idempotencyKey: "metadata-order-2" });
    expect(b.id).toBe(a.id);
  });
});
