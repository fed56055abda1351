import { expect, test } from "@playwright/test";
import { createCheckout, decideAtBank, MERCHANT_KEY, payWithBank } from "./journey";

const auth = { Authorization: `Bearer ${MERCHANT_KEY}` };

test("the merchant refunds part of a paid checkout over the API, once per Idempotency-Key, and no more than was paid", async ({
  page,
  request,
}) => {
  const checkoutId = await createCheckout(request, { amount: "24.90" });
  await page.goto(`/checkout/${checkoutId}`);
  await payWithBank(page);
  await decideAtBank(page, "Approve");
  await expect(page.getByRole("heading", { name: "Payment received" })).toBeVisible();

  const refund = (amount: string, key: string) =>
    request.post(`/api/checkouts/${checkoutId}/refunds`, {
      headers: { ...auth, "Idempotency-Key": key },
      data: { amount, reason: "Returned" },
    });
  const first = await refund("5.00", `rf-${checkoutId}`);
  expect(first.status()).toBe(200);
  const made = (await first.json()) as { id: string; amount: string; currency: string };
  expect(made).toMatchObject({ amount: "5.00", currency: "EUR" });
  // The same request again (a retry after a lost answer) is the same refund, not a second one.
  expect(await (await refund("5.00", `rf-${checkoutId}`)).json()).toMatchObject({ id: made.id });

  const tooMuch = await refund("20.00", `rf2-${checkoutId}`);
  expect(tooMuch.status()).toBe(422);
  expect(await tooMuch.json()).toMatchObject({
    code: "refund_exceeds_payment",
    retry: false,
    errors: [{ path: "amount" }],
  });

  const list = await request.get(`/api/checkouts/${checkoutId}/refunds`, { headers: auth });
  expect(((await list.json()) as { refunds: { id: string }[] }).refunds.map((r) => r.id)).toEqual([made.id]);

  expect((await request.post(`/api/checkouts/${checkoutId}/refunds`, { data: { amount: "1.00" } })).status()).toBe(401);
  const unknown = await request.post("/api/checkouts/co_unknown/refunds", { headers: auth, data: { amount: "1.00" } });
  expect(await unknown.json()).toMatchObject({ status: 404, code: "checkout_not_found" });
});

test("a refund the provider does not answer is taken with 202 and its outcome unknown, never 'try again', and it counts against the payment", async ({
  page,
  request,
}) => {
  test.setTimeout(60_000);
  const checkoutId = await createCheckout(request, { amount: "10.00" });
  await page.goto(`/checkout/${checkoutId}`);
  await payWithBank(page);
  await decideAtBank(page, "Approve");
  await expect(page.getByRole("heading", { name: "Payment received" })).toBeVisible();

  const sandbox = process.env.SANDBOX_URL ?? "http://localhost:3101";
  const fault = (data: object) => request.post(`${sandbox}/_sandbox/faults`, { data });
  expect((await fault({ mode: "timeout", paths: ["/pis/payment"], methods: ["POST"], count: 1 })).status()).toBe(200);
  try {
    const res = await request.post(`/api/checkouts/${checkoutId}/refunds`, {
      headers: { ...auth, "Idempotency-Key": `lost-${checkoutId}` },
      data: { amount: "4.00" },
      timeout: 40_000,
    });
    expect(res.status()).toBe(202);
    expect(await res.json()).toMatchObject({ amount: "4.00", status: "unknown" });
  } finally {
    await fault({ mode: "none" });
  }
  // What is left to refund does not include it until its outcome is known.
  const rest = await request.post(`/api/checkouts/${checkoutId}/refunds`, { headers: auth, data: { amount: "10.00" } });
  expect(await rest.json()).toMatchObject({
    code: "refund_exceeds_payment",
    errors: [{ message: "must be at most 6.00" }],
  });
});

test("readiness says the database and the provider answer", async ({ request }) => {
  const res = await request.get("/api/health/ready");
  expect(res.status()).toBe(200);
  expect(await res.json()).toEqual({ status: "ready", database: "ok", provider: "ok" });
});

test("a merchant's own test pays a checkout with the sandbox's test helper, without a browser, and refunds it", async ({
  request,
}) => {
  const checkoutId = await createCheckout(request, { amount: "12.00", metadata: { orderId: "T-1" } });
  const paid = await request.post(`/api/test-helpers/checkouts/${checkoutId}/complete`, {
    headers: auth,
    data: { outcome: "paid" },
  });
  expect(paid.status()).toBe(200);
  expect(await paid.json()).toMatchObject({ id: checkoutId, status: "paid", final: true });
  const refund = await request.post(`/api/checkouts/${checkoutId}/refunds`, {
    headers: { ...auth, "Idempotency-Key": `th-${checkoutId}` },
    data: { amount: "2.00" },
  });
  expect(refund.status()).toBe(200);
  const again = await request.post(`/api/checkouts/${checkoutId}/refunds`, {
    headers: { ...auth, "Idempotency-Key": `th-${checkoutId}` },
    data: { amount: "2.00" },
  });
  expect(again.headers()["idempotent-replayed"]).toBe("true");
  const view = await request.get(`/api/checkouts/${checkoutId}`, { headers: auth });
  expect(await view.json()).toMatchObject({
    status: "paid",
    metadata: { orderId: "T-1" },
    amountRefunded: "2.00",
    amountRefundable: "10.00",
  });
  // Paid once is paid: the helper cannot pay it again.
  const twice = await request.post(`/api/test-helpers/checkouts/${checkoutId}/complete`, {
    headers: auth,
    data: { outcome: "paid" },
  });
  expect(twice.status()).toBe(409);
});
