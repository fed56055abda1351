import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  control,
  createPayment,
  credentials,
  getJson,
  nocardCredentials,
  openLink,
  paymentBody,
  payAtBank,
  postJson,
  startSandbox,
  type RunningSandbox,
} from "./test-helpers";

let s: RunningSandbox;
const DAY = 24 * 3600 * 1000;

beforeAll(async () => {
  s = await startSandbox({ now: () => 1_800_000_000_000, refundDelayMs: 5_000 });
});
afterAll(async () => {
  await s.sandbox.close();
});

async function paidPayment(amount = "12.30", currencyCode = "EUR", webhookUrl?: string) {
  const { id, confirmLink } = await createPayment(s.api, {
    query: "?bankId=SEB_LT_SAND",
    body: paymentBody({ amount, currencyCode }),
    ...(webhookUrl !== undefined && { webhookUrl }),
  });
  await payAtBank(confirmLink);
  return id;
}

const refund = (id: string, amount: unknown, headers: Record<string, string> = {}) =>
  postJson(`${s.api}/pis/payment/${id}/refunds`, { amount }, { ...credentials, ...headers });
const refunds = async (id: string) =>
  ((await getJson(`${s.api}/pis/payment/${id}/refunds`)).json as { data: { id: number; statusGroup: string }[] }).data;

describe("refunds (v0.3)", () => {
  it("creates a refund with an integer id, `started`, and lists it", async () => {
    const id = await paidPayment("12.30", "EUR", "https://shop.example/hooks/pis");
    const first = await refund(id, "5.00", { "Webhook-URL": "https://shop.example/hooks/refunds?r=1" });
    expect(first).toEqual({
      status: 200,
      json: {
        id: expect.any(Number),
        paymentId: id,
        amount: "5.00",
        statusGroup: "started",
        webhookUrl: "https://shop.example/hooks/refunds?r=1",
        createdAt: "2027-01-15T08:00:00.000Z",
      },
    });
    // Without its own Webhook-URL a refund reports to the payment's.
    const second = await refund(id, "1.30");
    expect(second.json).toMatchObject({
      webhookUrl: "https://shop.example/hooks/pis",
      id: (first.json as { id: number }).id + 1,
    });
    expect(await getJson(`${s.api}/pis/payment/${id}/refunds`)).toEqual({
      status: 200,
      json: { data: [first.json, second.json] },
    });
  });

  it("goes started → completed after the configured delay", async () => {
    const id = await paidPayment();
    await refund(id, "1.00");
    await control(s).post("/clock", { advanceMs: 4_999 });
    expect((await refunds(id)).map((r) => r.statusGroup)).toEqual(["started"]);
    await control(s).post("/clock", { advanceMs: 1 });
    expect((await refunds(id)).map((r) => r.statusGroup)).toEqual(["completed"]);
  });

  it("never refunds more than was paid in total; a failed refund frees its amount", async () => {
    const id = await paidPayment("12.30");
    expect((await refund(id, "10.00")).status).toBe(200);
    const over = await refund(id, "2.31");
    expect(over).toEqual({
      status: 400,
      json: {
        error: {
          code: 10027,
          name: "RefundAmountExceeded",
          description: "The refunds would exceed the paid amount; at most 2.30 can still be refunded.",
        },
        data: {},
      },
    });
    expect((await refund(id, "2.30")).status).toBe(200);
    expect((await refund(id, "0.01")).status).toBe(400);
    const [firstRefund] = await refunds(id);
    // The console (or the control API) fails a refund.
    expect(
      (await control(s).post(`/refunds/${firstRefund?.id ?? 0}/status`, { statusGroup: "failed" })).json,
    ).toMatchObject({ statusGroup: "failed" });
    expect((await refund(id, "10.00")).status).toBe(200);
  });

  it("refunds completed payments only, in EUR and PLN only, within the day limit", async () => {
    const started = await createPayment(s.api);
    expect((await refund(started.id, "1.00")).json).toEqual({
      error: { code: 10026, name: "RefundNotAllowed", description: "Only completed payments can be refunded." },
      data: {},
    });
    expect((await refund(await paidPayment("5.00", "USD"), "1.00")).json).toMatchObject({
      error: { code: 10028, name: "RefundCurrencyNotSupported" },
    });
    expect((await refund(await paidPayment("5.00", "PLN"), "1.00")).status).toBe(200);
    const old = await paidPayment();
    await control(s).post("/clock", { advanceMs: 366 * DAY });
    expect((await refund(old, "1.00")).json).toMatchObject({
      error: { name: "RefundNotAllowed", description: "Refunds are possible for 365 days after the payment." },
    });
  });

  it("refunds card payments where the project allows it", async () => {
    s.sandbox.store.addProject({
      id: "no-card-refunds",
      name: "No card refunds",
      clientId: "ncr-id",
      clientSecret: "ncr-secret",
      webhookSecret: "ncr-hook",
      paymentMethods: ["bank", "card"],
      allowedRefundsFor: ["bank"],
    });
    const creds = { "Client-Id": "ncr-id", "Client-Secret": "ncr-secret" };
    const { id, confirmLink } = await createPayment(s.api, {
      query: "?paymentMethodPreferred=card",
      body: paymentBody({ cardPaymentMethod: {} }),
      headers: creds,
    });
    await (
      await openLink(confirmLink)
    ).post("card", { number: "4111111111111111", expiry: "12/39", cvc: "123", name: "A" });
    expect((await refund(id, "1.00", creds)).json).toMatchObject({
      error: { name: "RefundNotAllowed", description: "The project cannot refund card payments." },
    });
  });

  it("validates the body and the Webhook-URL, and hides other projects' payments", async () => {
    const id = await paidPayment();
    expect((await refund(id, "1,00")).json).toMatchObject({
      error: { name: "InvalidRequest" },
      data: '"amount" must be a number',
    });
    expect((await refund(id, undefined)).json).toMatchObject({ data: '"amount" is required' });
    expect((await refund(id, "1.00", { "Webhook-URL": "x" })).json).toMatchObject({
      error: { name: "InvalidWebhookUrl" },
    });
    expect((await refund(id, "1.00", nocardCredentials)).status).toBe(404);
    expect((await getJson(`${s.api}/pis/payment/${id}/refunds`, nocardCredentials)).status).toBe(404);
    expect((await refund("0".repeat(40), "1.00")).status).toBe(404);
    expect((await getJson(`${s.api}/pis/payment/${id}/refunds`, {})).status).toBe(401);
  });

  it("does not exist before v0.3", async () => {
    const id = await paidPayment();
    for (const version of ["v0.1", "v0.2"] as const) {
      expect((await postJson(`${s.v(version)}/pis/payment/${id}/refunds`, { amount: "1.00" })).json).toMatchObject({
        error: { code: 10004 },
      });
      expect((await getJson(`${s.v(version)}/pis/payment/${id}/refunds`)).status).toBe(404);
    }
  });
});
