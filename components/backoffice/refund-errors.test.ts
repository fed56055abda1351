import { describe, expect, it } from "vitest";
import type { RefundView } from "@/lib/checkout/contract";
import { describeRefund } from "./refund-errors";

const refund = (status: RefundView["status"]): RefundView => ({
  id: "rf_1",
  attemptId: "pa_1",
  amount: "5.00",
  currency: "EUR",
  status,
  reason: null,
  createdBy: "staff",
  createdAt: "2026-11-28T10:00:00.000Z",
});

describe("describeRefund", () => {
  it("tells staff a refund started, or that the service refused it", () => {
    expect(describeRefund(refund("started"))).toEqual({ ok: true, message: "Refund of €5.00 started" });
    expect(describeRefund(refund("failed"))).toMatchObject({ ok: false, error: expect.stringMatching(/refused/) });
  });

  it("does not invite a second refund when the service did not answer: it may have refunded", () => {
    const told = describeRefund(refund("unknown"));
    expect(told.ok).toBe(true);
    expect(told).toMatchObject({ message: expect.stringMatching(/did not answer.*before refunding again/) });
  });
});
