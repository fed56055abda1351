import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
// The app's own signer: what it sends is what the client must accept.
import { signNotification } from "../../../lib/checkout/notifications";
import { NotificationVerificationError, verifyNotification } from "./notifications.ts";

const NOW = 1_800_000_000_000;
const body = JSON.stringify({
  id: "ntf_1",
  event: "checkout.paid",
  createdAt: "2027-01-15T08:00:00.000Z",
  sequence: 4,
  checkout: { id: "co_1", reference: "order-42", amount: "12.50", currency: "EUR", metadata: { orderId: "42" } },
  status: "paid",
  attemptId: "pa_1",
});
const sign = (secret: string, t: number, raw = body) =>
  `t=${t},v1=${createHmac("sha256", secret).update(`${t}.${raw}`).digest("hex")}`;
const headers = (signature: string) => ({ "checkout-signature": signature, "content-type": "application/json" });

async function refusal(promise: Promise<unknown>) {
  const error = await promise.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(NotificationVerificationError);
  return (error as NotificationVerificationError).reason;
}

describe("verifyNotification", () => {
  it("accepts a notification the app signed, and returns it parsed", async () => {
    const signature = signNotification("whsec_test", String(NOW), body);
    const notification = await verifyNotification(body, headers(signature), "whsec_test", { now: NOW });
    expect(notification).toEqual(JSON.parse(body));
    expect(notification.checkout.amount).toBe("12.50");
  });

  it("accepts the app's header with several secrets (a roll) when any of ours matches", async () => {
    const signature = signNotification(["dev-notify-secret", "whsec_new"], String(NOW), body);
    expect(signature.match(/v1=/g)).toHaveLength(2);
    await expect(verifyNotification(body, headers(signature), ["whsec_new"], { now: NOW })).resolves.toMatchObject({
      id: "ntf_1",
    });
    // The merchant moving to the new secret lists both until the old one stops signing.
    const onlyOld = sign("whsec_old", NOW);
    await expect(
      verifyNotification(body, headers(onlyOld), ["whsec_new", "whsec_old"], { now: NOW }),
    ).resolves.toBeTruthy();
  });

  it("reads the header from fetch's Headers and from bytes", async () => {
    const h = new Headers({ "Checkout-Signature": sign("s", NOW) });
    await expect(verifyNotification(new TextEncoder().encode(body), h, "s", { now: NOW })).resolves.toBeTruthy();
    await expect(
      verifyNotification(body, { "Checkout-Signature": sign("s", NOW) }, "s", { now: NOW }),
    ).resolves.toBeTruthy();
  });

  it("refuses a wrong secret", async () => {
    expect(await refusal(verifyNotification(body, headers(sign("other", NOW)), "s", { now: NOW }))).toBe(
      "bad_signature",
    );
  });

  it("refuses a body changed after signing, by one byte", async () => {
    const tampered = body.replace('"12.50"', '"92.50"');
    expect(await refusal(verifyNotification(tampered, headers(sign("s", NOW)), "s", { now: NOW }))).toBe(
      "bad_signature",
    );
  });

  it("refuses a timestamp changed after signing", async () => {
    const moved = sign("s", NOW - 3_600_000).replace(/^t=\d+/, `t=${NOW}`);
    expect(await refusal(verifyNotification(body, headers(moved), "s", { now: NOW }))).toBe("bad_signature");
  });

  it("refuses one signed over 5 minutes ago (t is in milliseconds), and takes one just inside", async () => {
    const old = NOW - 5 * 60_000 - 1;
    expect(await refusal(verifyNotification(body, headers(sign("s", old)), "s", { now: NOW }))).toBe("stale");
    await expect(verifyNotification(body, headers(sign("s", old + 2)), "s", { now: NOW })).resolves.toBeTruthy();
  });

  it("takes a clock up to 5 minutes ahead, and refuses one further ahead", async () => {
    await expect(
      verifyNotification(body, headers(sign("s", NOW + 5 * 60_000)), "s", { now: NOW }),
    ).resolves.toBeTruthy();
    expect(await refusal(verifyNotification(body, headers(sign("s", NOW + 5 * 60_000 + 1)), "s", { now: NOW }))).toBe(
      "future",
    );
  });

  it("refuses a missing or malformed header", async () => {
    expect(await refusal(verifyNotification(body, {}, "s", { now: NOW }))).toBe("missing_signature");
    for (const bad of ["", "v1=abc", `t=${NOW}`, `t=soon,v1=${"a".repeat(64)}`, `t=${NOW},v1=zz`])
      expect(await refusal(verifyNotification(body, headers(bad), "s", { now: NOW }))).toBe("malformed_signature");
  });

  it("refuses a validly signed body that is not a notification", async () => {
    for (const raw of ["not json", "[]", JSON.stringify({ ...JSON.parse(body), event: "checkout.refunded" })]) {
      expect(await refusal(verifyNotification(raw, headers(sign("s", NOW, raw)), "s", { now: NOW }))).toBe(
        "malformed_body",
      );
    }
  });

  it("needs a secret", async () => {
    await expect(verifyNotification(body, headers(sign("s", NOW)), [], { now: NOW })).rejects.toThrow(TypeError);
  });
});
