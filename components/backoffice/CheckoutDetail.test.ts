import { describe, expect, it } from "vitest";
import type { StaffDetail } from "@/lib/checkout/contract";
import { refreshEveryMs } from "./CheckoutDetail";

const detail = (
  status: string,
  refundStatuses: string[],
  notifications: { deliveredAt: string | null; givenUp: boolean }[] = [],
) =>
  ({
    checkout: { status },
    refunds: refundStatuses.map((s, i) => ({ id: `r${i}`, status: s })),
    notifications,
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

  it("reads again while a notification is on its way (one sent again shows when it is delivered), not for one given up", () => {
    const delivered = { deliveredAt: "2026-11-28T10:00:00.000Z", givenUp: false };
    expect(refreshEveryMs(detail("paid", [], [delivered, { deliveredAt: null, givenUp: false }]), 0)).toBe(5_000);
    expect(refreshEveryMs(detail("paid", [], [delivered, { deliveredAt: null, givenUp: true }]), 0)).toBe(false);
  });
});
