import { once } from "node:events";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { BankCheckout, BankCheckoutError, verifyNotification } from "../clients/typescript/src/index.ts";
import { MERCHANT_KEY } from "./journey";

/**
 * The typed merchant client (clients/typescript) against the running app in sandbox mode, as a
 * merchant's own test suite would use it: no browser, the sandbox bank decides through the test
 * helper, and the notification is checked with the client's verifyNotification.
 */

// The app's notifications are signed with the settings' secret (sandbox default) beside any made in
// the back office: ours is enough.
const NOTIFY_SECRET = process.env.MERCHANT_NOTIFY_SECRET || "dev-notify-secret";

const baseUrl = () => test.info().project.use.baseURL ?? process.env.E2E_APP_URL!;
const client = (apiKey = MERCHANT_KEY) => new BankCheckout({ baseUrl: baseUrl(), apiKey, timeoutMs: 20_000 });
const order = (over: Partial<Parameters<BankCheckout["checkouts"]["create"]>[0]> = {}) => ({
  amount: "12.00",
  currency: "EUR" as const,
  description: "Order from the client's e2e suite",
  reference: `client-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`,
  returnUrl: `${baseUrl()}/`,
  ...over,
});

/** The merchant's notifyUrl: keeps each request's raw body and headers, answers 200. */
let merchant: Server;
let notifyUrl: string;
const received: { raw: string; headers: IncomingHttpHeaders }[] = [];

test.beforeAll(async () => {
  merchant = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ raw: Buffer.concat(chunks).toString("utf8"), headers: req.headers });
      res.writeHead(200).end();
    });
  });
  merchant.listen(0, "127.0.0.1");
  await once(merchant, "listening");
  notifyUrl = `http://127.0.0.1:${(merchant.address() as AddressInfo).port}/notify`;
});
test.afterAll(() => merchant?.close());

/** The verified notification of `event` for the checkout, once it has come. */
async function notification(checkoutId: string, event: string) {
  let found: Awaited<ReturnType<typeof verifyNotification>> | undefined;
  await expect
    .poll(
      async () => {
        for (const { raw, headers } of received) {
          const n = await verifyNotification(raw, headers, [NOTIFY_SECRET]);
          if (n.checkout.id === checkoutId && n.event === event) found = n;
        }
        return found?.event;
      },
      { timeout: 15_000 },
    )
    .toBe(event);
  return found!;
}

test("the client creates a checkout, pays it in the sandbox, verifies the notification and refunds it", async () => {
  const api = client();
  const created = await api.checkouts.create(order({ notifyUrl, metadata: { orderId: "C-1" } }));
  expect(created).toMatchObject({ status: "open", url: expect.stringContaining(`/checkout/${created.id}`) });

  const paid = await api.testHelpers.completePayment(created.id, "paid");
  expect(paid).toMatchObject({ id: created.id, status: "paid", final: true });

  const n = await notification(created.id, "checkout.paid");
  expect(n).toMatchObject({
    status: "paid",
    checkout: { id: created.id, amount: "12.00", currency: "EUR", metadata: { orderId: "C-1" } },
  });
  // A body changed in transit is refused.
  const signed = received.find((r) => r.raw.includes(n.id))!;
  await expect(verifyNotification(signed.raw.replace("12.00", "99.00"), signed.headers, NOTIFY_SECRET)).rejects.toThrow(
    /signature/,
  );

  const refund = await api.refunds.create(created.id, { amount: "2.50", reason: "Returned" });
  expect(refund).toMatchObject({ amount: "2.50", currency: "EUR" });
  expect((await api.refunds.list(created.id)).refunds.map((r) => r.id)).toEqual([refund.id]);
  expect(await api.checkouts.get(created.id)).toMatchObject({
    status: "paid",
    amountRefunded: "2.50",
    amountRefundable: "9.50",
  });
  const listed = await api.checkouts.list({ q: created.id });
  expect(listed.items.map((c) => c.id)).toEqual([created.id]);
});

test("the client's errors are typed: validation, key, unknown checkout, reused key, state", async () => {
  const api = client();
  const failure = async (p: Promise<unknown>) => {
    const error = await p.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(BankCheckoutError);
    return error as BankCheckoutError;
  };

  const invalid = await failure(api.checkouts.create(order({ amount: "12.345" })));
  expect(invalid).toMatchObject({ status: 400, code: "invalid_request", retry: false });
  expect(invalid.errors.map((e) => e.path)).toContain("amount");
  expect(invalid.requestId).toBeTruthy();

  expect(await failure(client("not-a-key").checkouts.list())).toMatchObject({ status: 401, code: "unauthorized" });
  expect(await failure(api.checkouts.get("co_unknownunknownunknown"))).toMatchObject({
    status: 404,
    code: "checkout_not_found",
  });

  // The same key with another amount is refused; with the same request it answers the first.
  const key = `client-e2e-${Date.now()}`;
  const first = await api.checkouts.create(order({ reference: key }), { idempotencyKey: key });
  expect((await api.checkouts.create(order({ reference: key }), { idempotencyKey: key })).id).toBe(first.id);
  expect(
    await failure(api.checkouts.create(order({ reference: key, amount: "13.00" }), { idempotencyKey: key })),
  ).toMatchObject({ status: 422, code: "idempotency_key_reused", retry: false });

  // A cancelled checkout takes no payment, and a paid one cannot be cancelled.
  expect(await api.checkouts.cancel(first.id)).toMatchObject({ status: "cancelled" });
  expect(await failure(api.testHelpers.completePayment(first.id, "paid"))).toMatchObject({
    status: 409,
    code: "checkout_cancelled",
  });
  const paid = await api.checkouts.create(order());
  await api.testHelpers.completePayment(paid.id, "paid");
  expect(await failure(api.checkouts.cancel(paid.id))).toMatchObject({ status: 409, code: "already_paid" });
  expect(await failure(api.refunds.create(paid.id, { amount: "50.00" }))).toMatchObject({
    status: 422,
    code: "refund_exceeds_payment",
    errors: [{ path: "amount" }],
  });
});

test("the client makes, reads, lists and deactivates a payment link", async () => {
  const api = client();
  const key = `client-link-${Date.now()}`;
  const params = {
    title: "Client e2e donation",
    currency: "EUR" as const,
    amount: "5.00",
    referencePrefix: "client-e2e",
  };
  const link = await api.paymentLinks.create(params, { idempotencyKey: key });
  // The same request under its key (a retry after a lost answer) is the same link.
  expect((await api.paymentLinks.create(params, { idempotencyKey: key })).id).toBe(link.id);
  expect(link).toMatchObject({ status: "active", amount: "5.00", url: expect.stringContaining(link.slug) });
  expect(await api.paymentLinks.get(link.id)).toMatchObject({ id: link.id, payments: 0, totalPaid: "0.00" });
  expect((await api.paymentLinks.list()).items.map((l) => l.id)).toContain(link.id);
  expect(await api.paymentLinks.deactivate(link.id)).toMatchObject({ status: "deactivated" });
  await expect(api.paymentLinks.get("pl_unknown")).rejects.toMatchObject({
    status: 404,
    code: "payment_link_not_found",
  });
});
