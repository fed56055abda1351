import { describe, expect, it } from "vitest";
import { verifyWebhook, webhookSignature } from "./webhook";

// Computed independently with: printf '%s' 'POST<url><ts><body>' | openssl dgst -sha256 -hmac whsec-test-vector
const VECTOR = {
  secret: "whsec-test-vector",
  url: "https://shop.example/api/webhooks/pis?order=7",
  timestamp: "1700000000000",
  body: '{"id":"0123456789abcdef0123456789abcdef01234567","bankStatus":"ACSC","statusGroup":"completed","type":"PAYMENT"}',
  signature: "eddd1847d7b8765d9f1a153466b1b39104e009ff3f3074d139e30d312c6e0e16",
};

const receive = (
  over: Partial<{ body: string; url: string; signature: string; timestamp: string; now: number; secret: string }> = {},
) =>
  verifyWebhook({
    rawBody: over.body ?? VECTOR.body,
    url: over.url ?? VECTOR.url,
    secret: over.secret ?? VECTOR.secret,
    now: over.now ?? Number(VECTOR.timestamp) + 1000,
    headers: {
      "X-Kevin-Timestamp": over.timestamp ?? VECTOR.timestamp,
      "X-Kevin-Signature": over.signature ?? VECTOR.signature,
    },
  });

describe("webhook signature", () => {
  it("matches the provider's scheme: hex HMAC-SHA256 of POST + url + timestamp + body", () => {
    expect(webhookSignature(VECTOR.secret, VECTOR.url, VECTOR.timestamp, VECTOR.body)).toBe(VECTOR.signature);
  });

  it("accepts a genuine payment webhook and reads its status", () => {
    const v = receive();
    expect(v).toEqual({
      ok: true,
      event: {
        type: "PAYMENT",
        paymentId: "0123456789abcdef0123456789abcdef01234567",
        status: { group: "completed", kind: "bank", code: "ACSC", errorCodes: [] },
      },
    });
  });

  it("reads headers whatever their case", () => {
    const v = verifyWebhook({
      rawBody: VECTOR.body,
      url: VECTOR.url,
      secret: VECTOR.secret,
      now: Number(VECTOR.timestamp),
      headers: new Headers({
        "x-kevin-timestamp": VECTOR.timestamp,
        "x-kevin-signature": VECTOR.signature.toUpperCase(),
      }),
    });
    expect(v.ok).toBe(true);
  });

  it("refuses a webhook signed over another URL", () => {
    expect(receive({ url: "https://shop.example/api/webhooks/pis" })).toMatchObject({
      ok: false,
      reason: "bad_signature",
    });
  });

  it("refuses a body changed after signing", () => {
    expect(receive({ body: VECTOR.body.replace("completed", "failed") })).toMatchObject({
      ok: false,
      reason: "bad_signature",
    });
  });

  it("refuses a webhook signed with another secret", () => {
    expect(receive({ secret: "someone-else" })).toMatchObject({ ok: false, reason: "bad_signature" });
  });

  it("refuses a replayed webhook older than five minutes", () => {
    expect(receive({ now: Number(VECTOR.timestamp) + 5 * 60 * 1000 + 1 })).toMatchObject({
      ok: false,
      reason: "stale",
    });
    expect(receive({ now: Number(VECTOR.timestamp) + 5 * 60 * 1000 - 1 }).ok).toBe(true);
  });

  it("refuses a webhook without signature headers", () => {
    const v = verifyWebhook({ rawBody: VECTOR.body, url: VECTOR.url, secret: VECTOR.secret, headers: {} });
    expect(v).toMatchObject({ ok: false, reason: "missing_headers" });
  });

  it("refuses a correctly signed body that is not a known event", () => {
    const body = '{"id":"not-a-payment-id","statusGroup":"completed","type":"PAYMENT"}';
    const signature = webhookSignature(VECTOR.secret, VECTOR.url, VECTOR.timestamp, body);
    expect(receive({ body, signature })).toMatchObject({ ok: false, reason: "malformed" });
  });

  it("reads a refund webhook, whose refund id comes as a string", () => {
    const body =
      '{"id":"12","paymentId":"0123456789abcdef0123456789abcdef01234567","statusGroup":"completed","type":"PAYMENT_REFUND"}';
    const signature = webhookSignature(VECTOR.secret, VECTOR.url, VECTOR.timestamp, body);
    expect(receive({ body, signature })).toEqual({
      ok: true,
      event: {
        type: "PAYMENT_REFUND",
        refundId: 12,
        paymentId: "0123456789abcdef0123456789abcdef01234567",
        statusGroup: "completed",
      },
    });
  });

  const signed = (body: string) =>
    receive({ body, signature: webhookSignature(VECTOR.secret, VECTOR.url, VECTOR.timestamp, body) });
  const PID = "0123456789abcdef0123456789abcdef01234567";

  it("reads a v0.1 payment webhook, whose bank status is `status`", () => {
    expect(signed(`{"id":"${PID}","status":"CANC","statusGroup":"failed","type":"PAYMENT"}`)).toEqual({
      ok: true,
      event: {
        type: "PAYMENT",
        paymentId: PID,
        status: { group: "failed", kind: "bank", code: "CANC", errorCodes: [] },
      },
    });
  });

  it("reads card and hybrid payment webhooks", () => {
    expect(
      signed(`{"id":"${PID}","cardStatus":"payment_success","statusGroup":"completed","type":"PAYMENT"}`),
    ).toMatchObject({
      ok: true,
      event: { status: { group: "completed", kind: "card", code: "payment_success" } },
    });
    expect(signed(`{"id":"${PID}","hybridStatus":"expired","statusGroup":"failed","type":"PAYMENT"}`)).toMatchObject({
      ok: true,
      event: { status: { group: "failed", kind: "hybrid", code: "expired" } },
    });
  });

  it("reads headers as node:http gives them, lowercase and possibly repeated", () => {
    const v = verifyWebhook({
      rawBody: VECTOR.body,
      url: VECTOR.url,
      secret: VECTOR.secret,
      now: Number(VECTOR.timestamp),
      headers: { "x-kevin-timestamp": [VECTOR.timestamp], "x-kevin-signature": VECTOR.signature, host: "shop.example" },
    });
    expect(v.ok).toBe(true);
  });

  it("refuses a signed body that is not JSON, or of an unknown type, as malformed", () => {
    expect(signed("not json")).toMatchObject({ ok: false, reason: "malformed" });
    expect(signed(`{"id":"${PID}","statusGroup":"completed","type":"PAYOUT"}`)).toMatchObject({
      ok: false,
      reason: "malformed",
    });
    expect(signed(`{"id":"${PID}","statusGroup":"created","type":"PAYMENT"}`)).toMatchObject({
      ok: false,
      reason: "malformed",
    });
    expect(signed(`{"id":"1.5","paymentId":"${PID}","statusGroup":"completed","type":"PAYMENT_REFUND"}`)).toMatchObject(
      { ok: false, reason: "malformed" },
    );
    // A refund id is a 32-bit Int (the JVM client's InitiatePaymentRefundResponse.id).
    for (const id of ["2147483648", "99999999999999999999999"])
      expect(
        signed(`{"id":"${id}","paymentId":"${PID}","statusGroup":"completed","type":"PAYMENT_REFUND"}`),
      ).toMatchObject({ ok: false, reason: "malformed" });
  });

  it("refuses a timestamp from the future beyond the window, and one that is not a number", () => {
    expect(receive({ now: Number(VECTOR.timestamp) - 5 * 60 * 1000 - 1 })).toMatchObject({
      ok: false,
      reason: "stale",
    });
    const body = VECTOR.body;
    const timestamp = "soon";
    expect(
      receive({ timestamp, signature: webhookSignature(VECTOR.secret, VECTOR.url, timestamp, body) }),
    ).toMatchObject({ ok: false, reason: "stale" });
  });
});
