import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { notifications, paymentAttempts } from "../db/schema";
import { testDbKinds } from "../db/testing";
import { createCheckout } from "./checkouts";
import type { CheckoutContext } from "./context";
import { deliverDueNotifications } from "./notifications";
import { startPayment } from "./payments";
import { signedWebhook, testContext, TEST_NOTIFY_SECRET } from "./test-context";
import { receivePisWebhook } from "./webhooks";

interface Received { body: string; signature: string; event: string }

describe.each(testDbKinds())("notifications to the merchant (%s)", (kind) => {
  let ctx: CheckoutContext;
  let close: () => Promise<void>;
  let merchant: Server;
  let notifyUrl: string;
  let answer = 200;
  const received: Received[] = [];

  beforeAll(async () => {
    ({ ctx, close } = await testContext(kind));
    merchant = createServer((req, res) => {
      let body = "";
      req.on("data", (d) => (body += d));
      req.on("end", () => {
        received.push({ body, signature: String(req.headers["checkout-signature"]), event: String(req.headers["checkout-event"]) });
        res.writeHead(answer).end();
      });
    });
    await new Promise<void>((r) => merchant.listen(0, "127.0.0.1", r));
    notifyUrl = `http://127.0.0.1:${(merchant.address() as AddressInfo).port}/notify`;
  });
  afterAll(async () => {
    merchant.close();
    await close();
  });

  async function payViaWebhook() {
    const checkout = await createCheckout({ amount: "12.00", currency: "EUR", description: "n", reference: `n-${Math.random()}`, returnUrl: "http://localhost/r", notifyUrl }, ctx);
    await startPayment(checkout.id, { method: "bank", bankId: "SEB_LT_SAND", termsAccepted: true, attemptKey: `key-${checkout.id.slice(3, 20)}` }, ctx);
    const [attempt] = await ctx.db.select().from(paymentAttempts).where(eq(paymentAttempts.checkoutId, checkout.id));
    const w = signedWebhook({ id: attempt!.providerPaymentId, bankStatus: "ACSC", statusGroup: "completed", type: "PAYMENT" });
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
    expect(JSON.parse(got!.body)).toMatchObject({ event: "checkout.paid", checkout: { id: checkout.id, amount: "12.00", currency: "EUR" } });
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
    expect(received.filter((r) => JSON.parse(r.body).checkout.id === checkout.id)).toHaveLength(2);
  });
});
