import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { notifications, paymentAttempts } from "../db/schema";
import { testDbKinds } from "../db/testing";
import type { CheckoutContext } from "./context";
import { deliverDueNotifications, enqueueNotification, startOutbox } from "./notifications";
import { signedWebhook, testContext, TEST_NOTIFY_SECRET } from "./test-context";
import { receivePisWebhook } from "./webhooks";
import { createCheckout } from "./create-checkout";
import { startPayment } from "./start-payment";

interface Received {
  body: string;
  signature: string;
  event: string;
  deliveryId: string;
}

describe.each(testDbKinds())("notifications to the merchant (%s)", (kind) => {
  let ctx: CheckoutContext;
  let close: () => Promise<void>;
  let sibling: () => Promise<{ ctx: CheckoutContext; close: () => Promise<void> }>;
  let held: Promise<number> = Promise.resolve(200);
  let merchant: Server;
  let notifyUrl: string;
  let answer = 200;
  const received: Received[] = [];

  beforeAll(async () => {
    ({ ctx, close, sibling } = await testContext(kind));
    merchant = createServer((req, res) => {
      let body = "";
      req.on("data", (d) => (body += d));
      req.on("end", () => {
        const got = {
          body,
          signature: String(req.headers["checkout-signature"]),
          event: String(req.headers["checkout-event"]),
          deliveryId: String(req.headers["checkout-delivery-id"]),
        };
        // /held: the answer waits until the test lets it go (a slow merchant), then is recorded.
        const answerWith = (status: number) => {
          received.push(got);
          res.writeHead(status).end();
        };
        if (req.url === "/held") void held.then(answerWith);
        else answerWith(answer);
      });
    });
    await new Promise<void>((r) => merchant.listen(0, "127.0.0.1", r));
    notifyUrl = `http://127.0.0.1:${(merchant.address() as AddressInfo).port}/notify`;
  });
  // Each test counts what it sends: a notification an earlier test left to retry later must not
  // fall due in the middle of another (on a slow machine, its back-off passes mid-file).
  beforeEach(async () => {
    await ctx.db
      .update(notifications)
      .set({ deliveredAt: new Date(), lockedUntil: null })
      .where(isNull(notifications.deliveredAt));
  });
  afterAll(async () => {
    merchant.close();
    await close();
  });

  async function payViaWebhook() {
    const checkout = await createCheckout(
      {
        amount: "12.00",
        currency: "EUR",
        description: "n",
        reference: `n-${Math.random()}`,
        returnUrl: "http://localhost/r",
        notifyUrl,
      },
      ctx,
    );
    await startPayment(
      checkout.id,
      { method: "bank", bankId: "SEB_LT_SAND", termsAccepted: true, attemptKey: `key-${checkout.id.slice(3, 20)}` },
      ctx,
    );
    const [attempt] = await ctx.db.select().from(paymentAttempts).where(eq(paymentAttempts.checkoutId, checkout.id));
    const w = signedWebhook({
      id: attempt!.providerPaymentId,
      bankStatus: "ACSC",
      statusGroup: "completed",
      type: "PAYMENT",
    });
    await receivePisWebhook(w.raw, w.headers, ctx);
    return checkout;
  }

  it("tells the merchant a checkout is paid, signed so it can check the sender", async () => {
    answer = 200;
    received.length = 0;
    const checkout = await payViaWebhook();
    expect(await deliverDueNotifications(ctx)).toBe(1);
    const [got] = received;
    expect(got!.event).toBe("checkout.paid");
    expect(JSON.parse(got!.body)).toMatchObject({
      event: "checkout.paid",
      checkout: { id: checkout.id, amount: "12.00", currency: "EUR" },
    });
    // The documented scheme, recomputed here: t=<ms>,v1=hex(HMAC-SHA256(secret, t + "." + body)).
    const [, t, v1] = got!.signature.match(/^t=(\d+),v1=([0-9a-f]{64})$/)!;
    const expected = createHmac("sha256", TEST_NOTIFY_SECRET).update(`${t}.${got!.body}`).digest("hex");
    expect(timingSafeEqual(Buffer.from(v1!), Buffer.from(expected))).toBe(true);
    // Delivered once: nothing is due any more.
    expect(await deliverDueNotifications(ctx)).toBe(0);
  });

  it("keeps retrying a merchant that fails, later, until it answers 2xx", async () => {
    answer = 503;
    received.length = 0;
    const checkout = await payViaWebhook();
    expect(await deliverDueNotifications(ctx)).toBe(0);
    const [pending] = await ctx.db.select().from(notifications).where(eq(notifications.checkoutId, checkout.id));
    expect(pending).toMatchObject({ attempts: 1, deliveredAt: null, lastStatus: 503 });
    expect(pending!.nextAttemptAt.getTime()).toBeGreaterThan(Date.now());

    // Not due yet; then, the clock past the back-off, it goes out again (from the database, as after a restart).
    expect(await deliverDueNotifications(ctx)).toBe(0);
    answer = 200;
    const later = { ...ctx, now: () => new Date(Date.now() + 60_000) };
    expect(await deliverDueNotifications(later)).toBe(1);
    const sent = received.filter((r) => JSON.parse(r.body).checkout.id === checkout.id);
    expect(sent).toHaveLength(2);
    // A retry is the same notification: same body, same id to drop repeats by.
    expect(sent[1]!.body).toBe(sent[0]!.body);
    expect(sent[1]!.deliveryId).toBe(sent[0]!.deliveryId);
    expect(JSON.parse(sent[0]!.body).id).toBe(sent[0]!.deliveryId);
  });

  /** Queues `count` notifications for a new checkout, as a status change would (no provider). */
  async function queue(count: number, url = notifyUrl) {
    const checkout = await createCheckout(
      {
        amount: "5.00",
        currency: "EUR",
        description: "q",
        reference: `q-${Math.random()}`,
        returnUrl: "http://localhost/r",
        notifyUrl: url,
      },
      ctx,
    );
    for (let i = 0; i < count; i++)
      await ctx.db.transaction((tx) => enqueueNotification(tx, { ...checkout, notifyUrl: url }, "checkout.paid"));
    return checkout;
  }
  const idsReceivedFor = (checkoutId: string) =>
    received.filter((r) => JSON.parse(r.body).checkout.id === checkoutId).map((r) => r.deliveryId);

  it("with private URLs not allowed, never connects to one, and says why in the notification's last error", async () => {
    received.length = 0;
    const checkout = await queue(1);
    const strict = { ...ctx, config: { ...ctx.config, allowPrivateUrls: false } };
    expect(await deliverDueNotifications(strict)).toBe(0);
    expect(received).toEqual([]);
    const [row] = await ctx.db.select().from(notifications).where(eq(notifications.checkoutId, checkout.id));
    expect(row).toMatchObject({ deliveredAt: null, lastStatus: null });
    expect(row!.lastError).toMatch(/private network/);
    // Out of the way of the tests below, which move the clock past its next attempt.
    await ctx.db.delete(notifications).where(eq(notifications.checkoutId, checkout.id));
  });

  it("two instances delivering at once send each notification once", async () => {
    answer = 200;
    const checkout = await queue(12);
    const other = await sibling();
    try {
      const [a, b] = await Promise.all([deliverDueNotifications(ctx), deliverDueNotifications(other.ctx)]);
      expect(a + b).toBe(12);
    } finally {
      await other.close();
    }
    const ids = idsReceivedFor(checkout.id);
    expect(ids).toHaveLength(12);
    expect(new Set(ids).size).toBe(12);
  });

  it("a slow merchant holds up only its own notification", async () => {
    answer = 200;
    let release!: (status: number) => void;
    held = new Promise((r) => (release = r));
    const slow = await queue(1, notifyUrl.replace("/notify", "/held"));
    const stop = startOutbox(ctx, { pollMs: 20, concurrency: 2, timeoutMs: 30_000 });
    try {
      await waitFor(async () => (await pending(slow.id))[0]!.lockedUntil !== null);
      // Queued after the slow one, and all delivered while it still hangs.
      const fast = await queue(5);
      await waitFor(async () => idsReceivedFor(fast.id).length === 5);
      expect(idsReceivedFor(slow.id)).toHaveLength(0);
      release(200);
      await waitFor(async () => (await pending(slow.id))[0]!.deliveredAt !== null);
    } finally {
      stop();
      release(200);
    }
  });

  it("a notification whose deliverer died is sent by another instance once the lease passes, and the late result of the first does not overwrite it", async () => {
    answer = 200;
    let release!: (status: number) => void;
    held = new Promise((r) => (release = r));
    const checkout = await queue(1, notifyUrl.replace("/notify", "/held"));
    // The first instance claims it and hangs (as if dying mid-request).
    const first = deliverDueNotifications(ctx, { timeoutMs: 60_000 });
    await waitFor(async () => (await pending(checkout.id))[0]!.lockedUntil !== null);
    expect(await deliverDueNotifications(ctx)).toBe(0); // leased: nobody else sends it meanwhile

    // Past the lease, another instance takes it over; the merchant answers it.
    const other = await sibling();
    try {
      const later = { ...other.ctx, now: () => new Date(Date.now() + 5 * 60_000) };
      await later.db.update(notifications).set({ url: notifyUrl }).where(eq(notifications.checkoutId, checkout.id));
      expect(await deliverDueNotifications(later)).toBe(1);
    } finally {
      await other.close();
    }
    // The first instance's request finally fails: its result no longer counts.
    release(500);
    expect(await first).toBe(0);
    const [row] = await pending(checkout.id);
    expect(row!.deliveredAt).not.toBeNull();
    expect(row!.attempts).toBe(1);
  });

  it("on shutdown, the outbox gives back the notification it is still sending, so another instance sends it at once", async () => {
    answer = 200;
    let release!: (status: number) => void;
    held = new Promise((r) => (release = r));
    const checkout = await queue(1, notifyUrl.replace("/notify", "/held"));
    const stop = startOutbox(ctx, { pollMs: 50, timeoutMs: 60_000 });
    await waitFor(async () => (await pending(checkout.id))[0]!.lockedUntil !== null);
    await stop(200); // the merchant is still holding the request when the grace ends
    expect((await pending(checkout.id))[0]!.lockedUntil).toBeNull();

    // Another instance, at the same moment (no clock moved past a lease), sends it.
    await ctx.db.update(notifications).set({ url: notifyUrl }).where(eq(notifications.checkoutId, checkout.id));
    expect(await deliverDueNotifications(ctx)).toBe(1);
    const before = received.length;
    release(500); // the first instance's request ends; its late result does not count
    await waitFor(async () => received.length > before);
    await new Promise((r) => setTimeout(r, 200)); // its (refused) write of the result
    const [row] = await pending(checkout.id);
    expect(row!.deliveredAt).not.toBeNull();
    expect(row!.attempts).toBe(1);
  });

  const pending = (checkoutId: string) =>
    ctx.db.select().from(notifications).where(eq(notifications.checkoutId, checkoutId));
});

async function waitFor(check: () => Promise<boolean>, timeoutMs = 10_000) {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 20));
  }
}
