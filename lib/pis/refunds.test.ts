import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PAYMENT_ID, REFUND } from "./test-fixtures";
import {
  forceStatus,
  PAYMENT_INPUT,
  rejection,
  sandboxClient,
  startRecordedProvider,
  type RecordedProvider,
} from "./test-helpers";

async function completedPayment(amount = "12.50") {
  const pis = sandboxClient();
  const started = await pis.payments.initiate({ ...PAYMENT_INPUT, amount });
  await forceStatus(started.id, { bankStatus: "ACSC", statusGroup: "completed" });
  return started.id;
}

describe("refunds with the sandbox, v0.3", () => {
  const pis = () => sandboxClient();

  it("refunds part of a completed payment, with an integer id and the amount as a decimal string", async () => {
    const paymentId = await completedPayment();
    const refund = await pis().refunds.create(paymentId, {
      amount: "5.00",
      webhookUrl: "http://shop.test/api/webhooks/pis?refund=1",
    });
    expect(Number.isInteger(refund.id)).toBe(true);
    expect(refund).toMatchObject({ paymentId, amount: "5.00" });
    expect(["started", "pending", "completed"]).toContain(refund.statusGroup);
  });

  it("lists every refund of a payment", async () => {
    const paymentId = await completedPayment();
    const first = await pis().refunds.create(paymentId, { amount: "2.50" });
    const second = await pis().refunds.create(paymentId, { amount: "10.00" });
    const refunds = await pis().refunds.list(paymentId);
    expect(refunds.map((r) => r.id).sort()).toEqual([first.id, second.id].sort());
    expect(refunds.map((r) => r.amount).sort()).toEqual(["10.00", "2.50"]);
  });

  it("lists no refunds for a payment never refunded", async () => {
    expect(await pis().refunds.list(await completedPayment())).toEqual([]);
  });

  it("refuses to refund more than was paid", async () => {
    const paymentId = await completedPayment("10.00");
    await pis().refunds.create(paymentId, { amount: "6.00" });
    const err = await rejection(pis().refunds.create(paymentId, { amount: "5.00" }));
    expect(err).toMatchObject({ kind: "http", httpStatus: 400, outcomeUnknown: false });
  });

  it("refuses to refund a payment that is not completed", async () => {
    const started = await pis().payments.initiate(PAYMENT_INPUT);
    expect(await rejection(pis().refunds.create(started.id, { amount: "1.00" }))).toMatchObject({
      kind: "http",
      httpStatus: 400,
    });
  });

  it("reports refunds of an unknown payment as a 404", async () => {
    expect(await rejection(pis().refunds.list("0".repeat(40)))).toMatchObject({ kind: "http", httpStatus: 404 });
  });
});

describe.each(["v0.1", "v0.2"] as const)("refunds with the sandbox, %s", (version) => {
  it("has no refunds before v0.3 (404)", async () => {
    const paymentId = await completedPayment();
    expect(await rejection(sandboxClient(version).refunds.create(paymentId, { amount: "1.00" }))).toMatchObject({
      kind: "http",
      httpStatus: 404,
    });
    expect(await rejection(sandboxClient(version).refunds.list(paymentId))).toMatchObject({
      kind: "http",
      httpStatus: 404,
    });
  });
});

describe("refunds from recorded responses", () => {
  let provider: RecordedProvider;
  beforeAll(async () => {
    provider = await startRecordedProvider();
  });
  afterAll(() => provider.close());

  it("posts {amount} with the Webhook-URL header", async () => {
    provider.reply({ json: REFUND });
    expect(
      await provider.client().refunds.create(PAYMENT_ID, { amount: "5.00", webhookUrl: REFUND.webhookUrl }),
    ).toEqual(REFUND);
    const req = provider.only();
    expect(req).toMatchObject({ method: "POST", path: `/v0.3/pis/payment/${PAYMENT_ID}/refunds` });
    expect(JSON.parse(req.body)).toEqual({ amount: "5.00" });
    expect(req.headers["webhook-url"]).toBe(REFUND.webhookUrl);
  });

  it("reads a numeric refund amount exactly", async () => {
    provider.reply({ text: JSON.stringify(REFUND).replace('"amount":"5.00"', '"amount":5.00') });
    expect((await provider.client().refunds.create(PAYMENT_ID, { amount: "5.00" })).amount).toBe("5.00");
  });

  it("never retries a refund whose answer was a 5xx", async () => {
    provider.reply({ status: 502 }, { json: REFUND });
    const err = await rejection(provider.client().refunds.create(PAYMENT_ID, { amount: "5.00" }));
    expect(err).toMatchObject({ httpStatus: 502, outcomeUnknown: true });
    expect(provider.requests).toHaveLength(1);
  });

  it("reads the refund list wrapped in data, and refuses it bare", async () => {
    provider.reply({ json: { data: [REFUND, { ...REFUND, id: 2, amount: "1.10" }] } });
    expect((await provider.client().refunds.list(PAYMENT_ID)).map((r) => r.id)).toEqual([1, 2]);
    expect(provider.only()).toMatchObject({ method: "GET", path: `/v0.3/pis/payment/${PAYMENT_ID}/refunds` });

    provider.reply({ json: [REFUND] });
    expect((await rejection(provider.client().refunds.list(PAYMENT_ID))).kind).toBe("parse");
  });

  it("refuses a refund whose id is not an integer", async () => {
    provider.reply({ json: { ...REFUND, id: "1" } });
    const err = await rejection(provider.client().refunds.create(PAYMENT_ID, { amount: "5.00" }));
    expect(err.kind).toBe("parse");
    expect(err.description).toContain("id");
  });
});
