import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach } from "vitest";
import { notifications, paymentAttempts } from "../db/schema";
import type { DbKind } from "../db/testing";
import type { CheckoutContext } from "./context";
import { createCheckout } from "./create-checkout";
import { enqueueNotification } from "./notifications";
import { startPayment } from "./start-payment";
import { signedWebhook, testContext } from "./test-context";
import { receivePisWebhook } from "./webhooks";

export interface Received {
  body: string;
  signature: string;
  event: string;
  deliveryId: string;
}

/**
 * For the notification tests: a checkout context and a merchant receiving notifications on
 * 127.0.0.1 that records what it gets. It answers `answer`; at /held, only when the test releases
 * the request (a slow merchant).
 */
export function notificationsContext(kind: DbKind) {
  let ctx!: CheckoutContext;
  let close: () => Promise<void>;
  let sibling!: () => Promise<{ ctx: CheckoutContext; close: () => Promise<void> }>;
  let held: Promise<number> = Promise.resolve(200);
  let merchant: Server;
  let notifyUrl = "";
  const received: Received[] = [];
  const state = { answer: 200 };

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
        const answerWith = (status: number) => {
          received.push(got);
          res.writeHead(status).end();
        };
        if (req.url === "/held") void held.then(answerWith);
        else answerWith(state.answer);
      });
    });
    await new Promise<void>((r) => merchant.listen(0, "127.0.0.1", r));
    notifyUrl = `http://127.0.0.1:${(merchant.address() as AddressInfo).port}/notify`;
  });
  // Each test counts what it sends: a notification an earlier test left to retry later must not
  // fall due in the middle of another (on a slow machine, its back-off passes mid-file).
  beforeEach(async () => {
    state.answer = 200;
    await ctx.db
      .update(notifications)
      .set({ deliveredAt: new Date(), lockedUntil: null })
      .where(isNull(notifications.deliveredAt));
  });
  afterAll(async () => {
    merchant.close();
    await close();
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
      await ctx.db.transaction((tx) =>
        enqueueNotification(tx, { ...checkout, notifyUrl: url, version: i }, "checkout.paid"),
      );
    return checkout;
  }

  /**
   * Queues a payment's failure, or its checkout's payment, for a checkout of `queue`, numbered as
   * the status changes would number them: the paid one later.
   */
  const notify = (checkout: Awaited<ReturnType<typeof queue>>, event: "checkout.payment_failed" | "checkout.paid") =>
    ctx.db.transaction((tx) =>
      enqueueNotification(tx, { ...checkout, notifyUrl, version: event === "checkout.paid" ? 2 : 1 }, event),
    );

  return {
    get ctx() {
      return ctx;
    },
    notify,
    sibling: () => sibling(),
    get notifyUrl() {
      return notifyUrl;
    },
    get heldUrl() {
      return notifyUrl.replace("/notify", "/held");
    },
    received,
    /** What the merchant answers from now on (200 at the start of each test). */
    set answer(status: number) {
      state.answer = status;
    },
    /** Holds the merchant's answers at /held until the returned function is called with a status. */
    hold(): (status: number) => void {
      let release!: (status: number) => void;
      held = new Promise((r) => (release = r));
      return release;
    },
    queue,
    idsReceivedFor: (checkoutId: string) =>
      received.filter((r) => JSON.parse(r.body).checkout.id === checkoutId).map((r) => r.deliveryId),
    pending: (checkoutId: string) =>
      ctx.db.select().from(notifications).where(eq(notifications.checkoutId, checkoutId)),
    /** A checkout paid through the sandbox and a signed webhook: its notification is queued. */
    async payViaWebhook() {
      const checkout = await createCheckout(
        {
          amount: "12.00",
          currency: "EUR",
          description: "n",
          reference: `n-${Math.random()}`,
          returnUrl: "http://localhost/r",
          notifyUrl,
          metadata: { orderId: "A-12" },
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
    },
  };
}

export async function waitFor(check: () => Promise<boolean>, timeoutMs = 10_000) {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 20));
  }
}
