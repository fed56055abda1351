import { describe, expect, it } from "vitest";
import { CheckoutError } from "@/lib/checkout/errors";
import { describeCancel, describeCancelError, describeResend } from "./staff-action-messages";

describe("what staff are told after Cancel checkout", () => {
  it("says the checkout is cancelled only when it is", () => {
    expect(describeCancel("cancelled")).toEqual({
      ok: true,
      message: "Checkout cancelled. The payer can no longer pay it.",
    });
    // A payment the bank completed while the cancel ran: the money decides (ADR 25).
    expect(describeCancel("paid")).toMatchObject({ ok: false, error: expect.stringMatching(/paid.*Refund/) });
  });

  it("explains each refusal to staff, not in the payer's words, and says what to do", () => {
    const told = (code: ConstructorParameters<typeof CheckoutError>[0]) => describeCancelError(new CheckoutError(code));
    expect(told("payment_authorised")).toMatch(/authorised .* cannot be stopped.*refund/i);
    expect(told("payment_in_progress")).toMatch(/Try again in a moment/);
    expect(told("provider_error")).toMatch(/Nothing was cancelled/);
    expect(told("already_paid")).toMatch(/Refund it instead/);
    expect(told("checkout_expired")).toMatch(/expired/);
    for (const code of ["payment_authorised", "payment_in_progress", "already_paid", "checkout_expired"] as const)
      expect(told(code)).not.toMatch(/\b(your|you)\b/i);
  });
});

describe("what staff are told after Send again", () => {
  it("says it is on its way, or why nothing was done", () => {
    expect(describeResend("queued")).toEqual({
      ok: true,
      message: "Sending it again now. The table shows when the merchant has it.",
    });
    expect(describeResend("delivered")).toEqual({ ok: true, message: "The merchant already has this notification." });
    expect(describeResend("in_delivery")).toEqual({ ok: true, message: "This notification is already being sent." });
    expect(describeResend("not_found")).toMatchObject({ ok: false });
  });
});
