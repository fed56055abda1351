import { createHmac, timingSafeEqual } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { notifications } from "../db/schema";
import { merchantNotification } from "./contract";
import { testDbKinds } from "../db/testing";
import { deliverDueNotifications } from "./outbox";
import { notificationsContext } from "./notifications-test-setup";
import { forceProviderStatus, signedWebhook, TEST_NOTIFY_SECRET } from "./test-context";
import { startPayment } from "./start-payment";
import { receivePisWebhook } from "./webhooks";

describe.each(testDbKinds())("notifications to the merchant (%s)", (kind) => {
  const s = notificationsContext(kind);

  it("tells the merchant a checkout is paid, signed so it can check the sender", async () => {
    s.answer = 200;
    s.received.length = 0;
    const checkout = await s.payViaWebhook();
    expect(await deliverDueNotifications(s.ctx)).toBe(1);
    const [got] = s.received;
    expect(got!.event).toBe("checkout.paid");
    expect(JSON.parse(got!.body)).toMatchObject({
      event: "checkout.paid",
      // The merchant's own metadata comes back with every notification of the checkout.
      checkout: { id: checkout.id, amount: "12.00", currency: "EUR", metadata: { orderId: "A-12" } },
    });
    // The body is what the OpenAPI document's webhook says, and nothing else.
    expect(merchantNotification.strict().safeParse(JSON.parse(got!.body)).error).toBeUndefined();
    // The documented scheme, recomputed here: t=<ms>,v1=hex(HMAC-SHA256(secret, t + "." + body)).
    const [, t, v1] = got!.signature.match(/^t=(\d+),v1=([0-9a-f]{64})$/)!;
    const expected = createHmac("sha256", TEST_NOTIFY_SECRET).update(`${t}.${got!.body}`).digest("hex");
    expect(timingSafeEqual(Buffer.from(v1!), Buffer.from(expected))).toBe(true);
    // Delivered once: nothing is due any more.
    expect(await deliverDueNotifications(s.ctx)).toBe(0);
  });

  it("keeps retrying a merchant that fails, later, until it answers 2xx", async () => {
    s.answer = 503;
    s.received.length = 0;
    const checkout = await s.payViaWebhook();
    expect(await deliverDueNotifications(s.ctx)).toBe(0);
    const [pending] = await s.ctx.db.select().from(notifications).where(eq(notifications.checkoutId, checkout.id));
    expect(pending).toMatchObject({ attempts: 1, deliveredAt: null, lastStatus: 503 });
    expect(pending!.nextAttemptAt.getTime()).toBeGreaterThan(Date.now());

    // Not due yet; then, the clock past the back-off, it goes out again (from the database, as after a restart).
    expect(await deliverDueNotifications(s.ctx)).toBe(0);
    s.answer = 200;
    const later = { ...s.ctx, now: () => new Date(Date.now() + 60_000) };
    expect(await deliverDueNotifications(later)).toBe(1);
    const sent = s.received.filter((r) => JSON.parse(r.body).checkout.id === checkout.id);
    expect(sent).toHaveLength(2);
    // A retry is the same notification: same body, same id to drop repeats by.
    expect(sent[1]!.body).toBe(sent[0]!.body);
    expect(sent[1]!.deliveryId).toBe(sent[0]!.deliveryId);
    expect(JSON.parse(sent[0]!.body).id).toBe(sent[0]!.deliveryId);
  });

  it("delivers a checkout's notifications in the order they happened: a later one waits while an earlier one is retried", async () => {
    s.answer = 503;
    const checkout = await s.queue(0);
    const notify = (event: "checkout.payment_failed" | "checkout.paid") => s.notify(checkout, event);
    await notify("checkout.payment_failed");
    expect(await deliverDueNotifications(s.ctx)).toBe(0);
    await notify("checkout.paid");
    s.answer = 200;
    // The failed one is not due yet, and the paid one must not overtake it.
    expect(await deliverDueNotifications(s.ctx)).toBe(0);
    const later = { ...s.ctx, now: () => new Date(Date.now() + 60_000) };
    while ((await deliverDueNotifications(later)) > 0);
    const events = s.received.filter((r) => JSON.parse(r.body).checkout.id === checkout.id).map((r) => r.event);
    expect(events).toEqual(["checkout.payment_failed", "checkout.payment_failed", "checkout.paid"]);
  });

  it("numbers a checkout's notifications so a merchant can tell the later one: a failed payment, then the paid one", async () => {
    const checkout = await s.queue(0);
    const payAndSettle = async (attemptKey: string, statusGroup: "failed" | "completed", bankStatus: string) => {
      const { confirmLink } = await startPayment(
        checkout.id,
        { method: "bank", bankId: "SEB_LT_SAND", termsAccepted: true, attemptKey },
        s.ctx,
      );
      const paymentId = new URL(confirmLink).pathname.split("/").pop()!;
      await forceProviderStatus(paymentId, { bankStatus });
      const w = signedWebhook({ id: paymentId, bankStatus, statusGroup, type: "PAYMENT" });
      expect((await receivePisWebhook(w.raw, w.headers, s.ctx)).refusal).toBeNull();
    };
    await payAndSettle("key-seq-1", "failed", "RJCT");
    await payAndSettle("key-seq-2", "completed", "ACSC");
    const bodies = (await s.pending(checkout.id))
      .map((n) => JSON.parse(n.payload) as { event: string; sequence: number })
      .sort((a, b) => a.sequence - b.sequence);
    expect(bodies.map((b) => b.event)).toEqual(["checkout.payment_failed", "checkout.paid"]);
    expect(bodies[1]!.sequence).toBeGreaterThan(bodies[0]!.sequence);
  });

  it("with private URLs not allowed, never connects to one, and says why in the notification's last error", async () => {
    s.received.length = 0;
    const checkout = await s.queue(1);
    const strict = { ...s.ctx, config: { ...s.ctx.config, allowPrivateUrls: false } };
    expect(await deliverDueNotifications(strict)).toBe(0);
    expect(s.received).toEqual([]);
    const [row] = await s.ctx.db.select().from(notifications).where(eq(notifications.checkoutId, checkout.id));
    expect(row).toMatchObject({ deliveredAt: null, lastStatus: null });
    expect(row!.lastError).toMatch(/private network/);
    // Out of the way of the tests below, which move the clock past its next attempt.
    await s.ctx.db.delete(notifications).where(eq(notifications.checkoutId, checkout.id));
  });
});
