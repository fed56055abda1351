import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { checkouts, notifications, paymentAttempts, statusEvents, type CheckoutRow } from "../db/schema";
import { testDbKinds } from "../db/testing";
import { applyProviderStatus } from "./apply-status";
import type { CheckoutContext } from "./context";
import { createCheckout } from "./create-checkout";
import { writeIfUnchanged, type GuardedWrite } from "./guarded-write";
import { testContext } from "./test-context";

const completed = { group: "completed" as const, code: "ACSC", kind: "bank" as const, errorCodes: [] };

describe.each(testDbKinds())("status writes that apply only to the checkout as read (%s)", (kind) => {
  let ctx: CheckoutContext;
  let close: () => Promise<void>;
  beforeAll(async () => ({ ctx, close } = await testContext(kind)));
  afterAll(() => close());

  const reference = () => `g-${Math.random().toString(36).slice(2)}`;
  /** A checkout in processing with `n` started attempts at the provider, as a payment start leaves it. */
  async function checkoutWithAttempts(n: number) {
    const { id } = await createCheckout(
      {
        amount: "9.99",
        currency: "EUR",
        description: "g",
        reference: reference(),
        returnUrl: "https://shop.test/r",
        notifyUrl: "https://shop.test/n",
      },
      ctx,
    );
    await ctx.db.update(checkouts).set({ status: "processing" }).where(eq(checkouts.id, id));
    const ids = Array.from({ length: n }, (_, i) => `pa_${reference()}_${i}`);
    for (const [i, attemptId] of ids.entries())
      await ctx.db.insert(paymentAttempts).values({
        id: attemptId,
        checkoutId: id,
        attemptKey: `key-${attemptId}`,
        method: "bank",
        providerPaymentId: `pp-${attemptId}`,
        statusGroup: "started",
        providerStatus: "STRT",
        // One abandoned by the payer at a time; the newest is current.
        abandonedAt: i < n - 1 ? new Date() : null,
      });
    return { id, attemptIds: ids };
  }
  const rowsOf = async (id: string) => ({
    checkout: (await ctx.db.select().from(checkouts).where(eq(checkouts.id, id)))[0]!,
    attempts: await ctx.db.select().from(paymentAttempts).where(eq(paymentAttempts.checkoutId, id)),
    events: await ctx.db.select().from(statusEvents).where(eq(statusEvents.checkoutId, id)),
    notifications: await ctx.db.select().from(notifications).where(eq(notifications.checkoutId, id)),
  });

  it("writes the whole change while the checkout is as read, and nothing of it once another write came first", async () => {
    const { id, attemptIds } = await checkoutWithAttempts(1);
    const read = (await rowsOf(id)).checkout;
    const change: GuardedWrite = {
      checkout: read,
      moveTo: "paid" as const,
      attemptUpdate: { id: attemptIds[0]!, set: { statusGroup: "completed" as const, completedAt: new Date() } },
      event: {
        checkoutId: id,
        attemptId: attemptIds[0]!,
        fromStatus: read.status,
        toStatus: "paid" as const,
        source: "webhook" as const,
      },
      notification: {
        id: `ntf_${reference()}`,
        checkoutId: id,
        event: "checkout.paid",
        url: "https://shop.test/n",
        payload: "{}",
        nextAttemptAt: new Date(),
      },
    };
    expect(await writeIfUnchanged(ctx.db, change)).toBe(true);
    const after = await rowsOf(id);
    expect(after.checkout).toMatchObject({ status: "paid", version: read.version + 1 });
    expect(after.attempts[0]).toMatchObject({ statusGroup: "completed" });
    expect(after.events.map((e) => e.toStatus)).toEqual(["paid"]);
    expect(after.notifications).toHaveLength(1);

    // The same change decided from the old read: refused whole.
    const again: GuardedWrite = {
      ...change,
      moveTo: "failed",
      attemptUpdate: { id: attemptIds[0]!, set: { statusGroup: "failed" } },
      notification: { ...change.notification!, id: `ntf_${reference()}` },
    };
    expect(await writeIfUnchanged(ctx.db, again)).toBe(false);
    expect(await rowsOf(id)).toEqual(after);
  });

  it("two copies of this module on one database (Next bundles it into pages and routes) never give one statement name two texts", async () => {
    vi.resetModules();
    const copy = (await import("./guarded-write")).writeIfUnchanged;
    const first = await checkoutWithAttempts(1);
    const second = await checkoutWithAttempts(1);
    const move = (read: CheckoutRow, moveTo: "paid" | "failed") => ({
      checkout: read,
      moveTo,
      event: { checkoutId: read.id, fromStatus: read.status, toStatus: moveTo, source: "webhook" as const },
    });
    // Each copy's first shape, different texts, on the same connections.
    expect(await writeIfUnchanged(ctx.db, move((await rowsOf(first.id)).checkout, "paid"))).toBe(true);
    expect(
      await copy(ctx.db, {
        ...move((await rowsOf(second.id)).checkout, "failed"),
        attemptUpdate: { id: second.attemptIds[0]!, set: { statusGroup: "failed" } },
      }),
    ).toBe(true);
    expect((await rowsOf(second.id)).checkout.status).toBe("failed");
  });

  it("many completions of one attempt at once apply once; the rest find it done", async () => {
    const { id, attemptIds } = await checkoutWithAttempts(1);
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, () => applyProviderStatus(ctx, { attemptId: attemptIds[0]! }, completed, "webhook")),
    );
    expect(outcomes.filter((o) => o === "applied")).toHaveLength(1);
    expect(outcomes.filter((o) => o === "unchanged")).toHaveLength(7);
    const after = await rowsOf(id);
    expect(after.checkout.status).toBe("paid");
    expect(after.events.filter((e) => e.toStatus === "paid")).toHaveLength(1);
    expect(after.notifications.map((n) => n.event)).toEqual(["checkout.paid"]);
  });

  it("two attempts completing at once: one pays the checkout, the other is flagged a duplicate and reported", async () => {
    const { id, attemptIds } = await checkoutWithAttempts(2);
    await Promise.all(attemptIds.map((attemptId) => applyProviderStatus(ctx, { attemptId }, completed, "webhook")));
    const after = await rowsOf(id);
    expect(after.checkout.status).toBe("paid");
    expect(after.attempts.every((a) => a.statusGroup === "completed")).toBe(true);
    expect(after.attempts.filter((a) => a.duplicateAt !== null)).toHaveLength(1);
    expect(after.notifications.map((n) => n.event).sort()).toEqual(["checkout.duplicate_payment", "checkout.paid"]);
  });
});
