import { createHmac } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_PROJECT } from "./projects";
import {
  control,
  createPayment,
  flatPaymentBody,
  openLink,
  payAtBank,
  paymentBody,
  postJson,
  startSandbox,
  waitFor,
  type RunningSandbox,
} from "./test-helpers";
import { DEFAULT_RETRY_DELAYS_MS, signWebhook } from "./webhooks";

interface Received {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  rawBody: string;
}

/** A merchant endpoint: records every webhook and answers with the next queued status (200 when none). */
function merchantEndpoint() {
  const received: Received[] = [];
  const answers: number[] = [];
  let hold: Promise<void> | undefined;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      received.push({
        method: req.method ?? "",
        path: req.url ?? "",
        headers: req.headers,
        rawBody: Buffer.concat(chunks).toString("utf8"),
      });
      void (hold ?? Promise.resolve()).then(() => {
        res.statusCode = answers.shift() ?? 200;
        res.end("ok");
      });
    });
  });
  return {
    received,
    answers,
    holdAnswers(until: Promise<void>) {
      hold = until;
    },
    async start() {
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function hmacHex(secret: string, text: string) {
  return createHmac("sha256", secret).update(text).digest("hex");
}

describe("signWebhook", () => {
  it("matches an HMAC-SHA256 computed independently (openssl dgst -sha256 -hmac)", () => {
    // printf '%s' 'POSThttps://shop.example/hook?x=11700000000000{"id":"abc"}' | openssl dgst -sha256 -hmac secret
    expect(
      signWebhook({
        secret: "secret",
        url: "https://shop.example/hook?x=1",
        timestamp: "1700000000000",
        rawBody: '{"id":"abc"}',
      }),
    ).toBe("c093f0574c560a78c066e043e4dbfd84ca6966abf157e162dfa6e24ccf249f3e");
  });

  it("changes when any part of the signed string changes", () => {
    const base = { secret: "s", url: "https://a.example/h", timestamp: "1", rawBody: "{}" };
    const signature = signWebhook(base);
    expect(signWebhook({ ...base, secret: "t" })).not.toBe(signature);
    expect(signWebhook({ ...base, url: "https://a.example/h?x" })).not.toBe(signature);
    expect(signWebhook({ ...base, timestamp: "2" })).not.toBe(signature);
    expect(signWebhook({ ...base, rawBody: "{} " })).not.toBe(signature);
  });

  it("retries by default for just under the provider's 2 days", () => {
    const total = DEFAULT_RETRY_DELAYS_MS.reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThan(40 * 3600 * 1000);
    expect(total).toBeLessThanOrEqual(48 * 3600 * 1000);
    expect(DEFAULT_RETRY_DELAYS_MS).toHaveLength(13);
  });
});

describe("webhook delivery", () => {
  let s: RunningSandbox;
  let merchant: ReturnType<typeof merchantEndpoint>;
  let merchantUrl: string;
  const clock = { now: 1_800_000_000_000 } as const;

  beforeAll(async () => {
    s = await startSandbox({ now: () => clock.now, webhookRetryDelaysMs: [50, 50], refundDelayMs: 0 });
  });
  afterAll(async () => {
    await s.sandbox.close();
  });
  afterEach(async () => {
    await merchant.close();
  });

  async function newMerchant() {
    merchant = merchantEndpoint();
    merchantUrl = await merchant.start();
  }

  /** Walks a payment through the hosted page to approval; returns the approve POST's answer. */
  async function approve(webhookUrl: string, api = s.api, body: unknown = paymentBody()) {
    const { id, confirmLink } = await createPayment(api, { query: "?bankId=SEB_LT_SAND", webhookUrl, body });
    return { id, answer: (await payAtBank(confirmLink)).answer };
  }

  const deliveriesOf = (id: string) => s.sandbox.store.deliveries.filter((d) => d.paymentId === id);

  it("posts a signed PAYMENT webhook to the exact Webhook-URL after approval", async () => {
    await newMerchant();
    const webhookUrl = `${merchantUrl}/api/webhooks/pis?shop=demo&token=a%2Fb`;
    const { id } = await approve(webhookUrl);
    const hook = await waitFor(() => merchant.received[0]);

    expect(hook.method).toBe("POST");
    expect(hook.path).toBe("/api/webhooks/pis?shop=demo&token=a%2Fb");
    expect(hook.rawBody).toBe(`{"id":"${id}","bankStatus":"ACSC","statusGroup":"completed","type":"PAYMENT"}`);
    expect(hook.headers["content-type"]).toBe("application/json");
    expect(hook.headers["x-kevin-timestamp"]).toBe(String(clock.now));
    const expected = hmacHex(DEFAULT_PROJECT.webhookSecret, `POST${webhookUrl}${String(clock.now)}${hook.rawBody}`);
    expect(hook.headers["x-kevin-signature"]).toBe(expected);
    expect(hmacHex("sandbox-client-secret", `POST${webhookUrl}${String(clock.now)}${hook.rawBody}`)).not.toBe(expected);

    await waitFor(() => deliveriesOf(id)[0]);
    expect(deliveriesOf(id)).toEqual([
      {
        jobId: expect.any(Number),
        type: "PAYMENT",
        paymentId: id,
        url: webhookUrl,
        attempt: 1,
        at: clock.now,
        durationMs: expect.any(Number),
        statusCode: 200,
        rawBody: hook.rawBody,
      },
    ]);
    const log = (await control(s).get(`/webhooks?paymentId=${id}`)).json as { data: Record<string, unknown>[] };
    expect(log.data).toEqual([expect.objectContaining({ paymentId: id, statusCode: 200, body: hook.rawBody })]);
  });

  it("sends user:password of the Webhook-URL as Basic auth, signed over the URL exactly as given", async () => {
    await newMerchant();
    const { host } = new URL(merchantUrl);
    for (const [userinfo, basic] of [
      ["user:pw", "user:pw"],
      ["shop%40demo:p%3Ass%20w", "shop@demo:p:ss w"],
    ] as const) {
      const webhookUrl = `http://${userinfo}@${host}/hook?shop=demo`;
      const { id } = await approve(webhookUrl);
      const hook = await waitFor(() => merchant.received.find((r) => r.rawBody.includes(id)));
      expect(hook.path).toBe("/hook?shop=demo");
      expect(hook.headers.authorization).toBe(`Basic ${Buffer.from(basic).toString("base64")}`);
      const ts = String(hook.headers["x-kevin-timestamp"]);
      expect(hook.headers["x-kevin-signature"]).toBe(
        hmacHex(DEFAULT_PROJECT.webhookSecret, `POST${webhookUrl}${ts}${hook.rawBody}`),
      );
      await waitFor(() => deliveriesOf(id)[0]);
      expect(deliveriesOf(id)).toEqual([expect.objectContaining({ url: webhookUrl, statusCode: 200, attempt: 1 })]);
    }
  });

  it("sends a failed-payment webhook on cancel, and none for a payment left pending", async () => {
    await newMerchant();
    const { id, confirmLink } = await createPayment(s.api, { webhookUrl: `${merchantUrl}/hook` });
    await (await openLink(confirmLink)).post("cancel");
    const hook = await waitFor(() => merchant.received[0]);
    expect(JSON.parse(hook.rawBody)).toEqual({ id, bankStatus: "CANC", statusGroup: "failed", type: "PAYMENT" });

    const pending = await createPayment(s.api, { query: "?bankId=SEB_LT_SAND", webhookUrl: `${merchantUrl}/hook` });
    await payAtBank(pending.confirmLink, "pending");
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(merchant.received).toHaveLength(1);
  });

  it("follows the payment's API version (v0.1 and v0.2: `status`) and method (cardStatus)", async () => {
    await newMerchant();
    const v01 = await approve(`${merchantUrl}/v01`, s.v("v0.1"), flatPaymentBody());
    const v02 = await approve(`${merchantUrl}/v02`, s.v("v0.2"), flatPaymentBody());
    const card = await createPayment(s.api, {
      query: "?paymentMethodPreferred=card",
      body: paymentBody({ cardPaymentMethod: {} }),
      webhookUrl: `${merchantUrl}/card`,
    });
    await (
      await openLink(card.confirmLink)
    ).post("card", { number: "4000000000000002", expiry: "12/39", cvc: "123", name: "A" });
    await waitFor(() => (merchant.received.length >= 3 ? true : undefined));
    const bodies = Object.fromEntries(merchant.received.map((r) => [r.path, JSON.parse(r.rawBody) as unknown]));
    expect(bodies["/v01"]).toEqual({ id: v01.id, status: "ACSC", statusGroup: "completed", type: "PAYMENT" });
    expect(bodies["/v02"]).toEqual({ id: v02.id, status: "ACSC", statusGroup: "completed", type: "PAYMENT" });
    expect(bodies["/card"]).toEqual({
      id: card.id,
      cardStatus: "payment_failure",
      statusGroup: "failed",
      type: "PAYMENT",
    });
  });

  it("sends PAYMENT_REFUND webhooks to the refund's own Webhook-URL when it completes", async () => {
    await newMerchant();
    const { id } = await approve(`${merchantUrl}/payments`);
    await waitFor(() => merchant.received[0]);
    const created = await postJson(
      `${s.api}/pis/payment/${id}/refunds`,
      { amount: "2.00" },
      {
        "Client-Id": DEFAULT_PROJECT.clientId,
        "Client-Secret": DEFAULT_PROJECT.clientSecret,
        "Webhook-URL": `${merchantUrl}/refunds`,
      },
    );
    const refundId = (created.json as { id: number }).id;
    const hook = await waitFor(() => merchant.received.find((r) => r.path === "/refunds"));
    expect(hook.rawBody).toBe(
      `{"id":"${refundId}","paymentId":"${id}","statusGroup":"completed","type":"PAYMENT_REFUND"}`,
    );
    const ts = String(hook.headers["x-kevin-timestamp"]);
    expect(hook.headers["x-kevin-signature"]).toBe(
      hmacHex(DEFAULT_PROJECT.webhookSecret, `POST${merchantUrl}/refunds${ts}${hook.rawBody}`),
    );
    await waitFor(() => s.sandbox.store.deliveries.find((d) => d.refundId === refundId));
    expect(s.sandbox.store.deliveries.find((d) => d.refundId === refundId)).toMatchObject({
      type: "PAYMENT_REFUND",
      paymentId: id,
    });
  });

  it("fires on a forced final status (every time it is forced), not on a forced pending one", async () => {
    await newMerchant();
    const { id } = await createPayment(s.api, { webhookUrl: `${merchantUrl}/forced` });
    await control(s).post(`/payments/${id}/status`, { bankStatus: "ACSP" });
    await control(s).post(`/payments/${id}/status`, { bankStatus: "RJCT" });
    await control(s).post(`/payments/${id}/status`, { bankStatus: "RJCT" });
    await waitFor(() => (merchant.received.length >= 2 ? true : undefined));
    expect(merchant.received.map((r) => JSON.parse(r.rawBody) as unknown)).toEqual([
      { id, bankStatus: "RJCT", statusGroup: "failed", type: "PAYMENT" },
      { id, bankStatus: "RJCT", statusGroup: "failed", type: "PAYMENT" },
    ]);
  });

  it("honours the project's webhookDelayInSec, by the sandbox clock", async () => {
    await newMerchant();
    s.sandbox.store.addProject({
      id: "late",
      name: "Late",
      clientId: "late-id",
      clientSecret: "late-secret",
      webhookSecret: "late-hook",
      webhookDelayInSec: 60,
    });
    const { id } = await createPayment(s.api, {
      webhookUrl: `${merchantUrl}/late`,
      headers: { "Client-Id": "late-id", "Client-Secret": "late-secret" },
    });
    await control(s).post(`/payments/${id}/status`, { bankStatus: "ACSC" });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(merchant.received).toHaveLength(0);
    await control(s).post("/clock", { advanceMs: 60_000 });
    await waitFor(() => merchant.received[0]);
    // The merchant's clock does not travel: the signed timestamp stays real time.
    expect(merchant.received[0]?.headers["x-kevin-timestamp"]).toBe(String(clock.now));
    expect(merchant.received[0]?.headers["x-kevin-signature"]).toBe(
      hmacHex(
        "late-hook",
        `POST${merchantUrl}/late${String(merchant.received[0]?.headers["x-kevin-timestamp"])}${merchant.received[0]?.rawBody ?? ""}`,
      ),
    );
  });

  it("retries after a 500 until the merchant answers 200, logging each attempt", async () => {
    await newMerchant();
    merchant.answers.push(500);
    const { id } = await approve(`${merchantUrl}/hook`);
    await waitFor(() => (merchant.received.length >= 2 ? true : undefined));
    const log = await waitFor(() => (deliveriesOf(id).length >= 2 ? deliveriesOf(id) : undefined));
    expect(log.map((d) => [d.attempt, d.statusCode])).toEqual([
      [1, 500],
      [2, 200],
    ]);
    expect(log[0]?.nextAttemptAt).toBe((log[0]?.at ?? 0) + 50);
    // Both attempts carry the same body and a valid signature.
    for (const hook of merchant.received) {
      const ts = String(hook.headers["x-kevin-timestamp"]);
      expect(hook.headers["x-kevin-signature"]).toBe(
        hmacHex(DEFAULT_PROJECT.webhookSecret, `POST${merchantUrl}/hook${ts}${hook.rawBody}`),
      );
    }
    // No third attempt after the 200.
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(merchant.received).toHaveLength(2);
  });

  it("retries on a network error and stops after the last configured delay", async () => {
    await newMerchant();
    const deadUrl = merchantUrl;
    await merchant.close();
    const { id } = await approve(`${deadUrl}/hook`);
    const log = await waitFor(() => (deliveriesOf(id).length >= 3 ? deliveriesOf(id) : undefined));
    expect(log.map((d) => d.statusCode)).toEqual([null, null, null]);
    expect(log[0]?.error).toBeTruthy();
    expect(log[2]?.nextAttemptAt).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(deliveriesOf(id)).toHaveLength(3);
    merchant = merchantEndpoint(); // afterEach closes a fresh, unstarted endpoint
  });

  it("does not hold the payer's redirect while the merchant is slow", async () => {
    await newMerchant();
    let release = () => {};
    merchant.holdAnswers(new Promise<void>((resolve) => (release = resolve)));
    const { answer } = await approve(`${merchantUrl}/hook`);
    expect(answer.status).toBe(303);
    await waitFor(() => merchant.received[0]);
    release();
  });
});
