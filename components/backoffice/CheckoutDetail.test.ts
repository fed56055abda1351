import { describe, expect, it } from "vitest";
import type { StaffDetail } from "@/lib/checkout/contract";
import { refreshEveryMs } from "./CheckoutDetail";

const detail = (status: string, refundStatuses: string[]) =>
  ({
    checkout: { status },
    refunds: refundStatuses.map((s, i) => ({ id: `r${i}`, status: s })),
  }) as unknown as StaffDetail;

describe("the checkout page's refresh while something is moving", () => {
  it("does not read again once everything is settled", () => {
    expect(refreshEveryMs(detail("paid", ["completed", "failed"]), 0)).toBe(false);
    expect(refreshEveryMs(detail("failed", []), 3)).toBe(false);
  });

  it("reads every 5 s while a refund or the payment is on its way, slower the longer it takes, at most every minute", () => {
    expect(refreshEveryMs(detail("paid", ["completed", "pending"]), 0)).toBe(5_000);
    expect(refreshEveryMs(detail("processing", []), 11)).toBe(5_000);
    expect(refreshEveryMs(detail("processing", []), 12)).toBe(10_000);
    expect(refreshEveryMs(detail("paid", ["started"]), 24)).toBe(20_000);
    expect(refreshEveryMs(detail("paid", ["started"]), 500)).toBe(60_000);
  });
});
