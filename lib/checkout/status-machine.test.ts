import { describe, expect, it } from "vitest";
import type { StatusGroup } from "./types";
import { canMoveAttempt, canMoveCheckout, checkoutStatusForAttempt } from "./status-machine";

const at = <G extends StatusGroup | null>(group: G, code: string | null = null) => ({ group, code });

describe("status machine", () => {
  it("moves a payment forward: started, pending, completed", () => {
    expect(canMoveAttempt(at(null), at("started", "STRD"))).toBe(true);
    expect(canMoveAttempt(at("started", "STRD"), at("pending", "ACTC"))).toBe(true);
    expect(canMoveAttempt(at("pending", "ACTC"), at("completed", "ACSC"))).toBe(true);
    expect(canMoveAttempt(at("started", "STRD"), at("failed", "CANC"))).toBe(true);
  });

  it("never moves a payment backward", () => {
    expect(canMoveAttempt(at("pending", "ACTC"), at("started", "STRD"))).toBe(false);
    expect(canMoveAttempt(at("completed", "ACSC"), at("pending", "ACTC"))).toBe(false);
  });

  it("never changes a final payment, even to the other final status", () => {
    expect(canMoveAttempt(at("completed", "ACSC"), at("failed", "RJCT"))).toBe(false);
    expect(canMoveAttempt(at("failed", "CANC"), at("completed", "ACSC"))).toBe(false);
  });

  it("ignores a repeat of the same status but takes a new code within a group", () => {
    expect(canMoveAttempt(at("pending", "ACTC"), at("pending", "ACTC"))).toBe(false);
    expect(canMoveAttempt(at("pending", "ACTC"), at("pending", "ACSP"))).toBe(true);
  });

  it("keeps a paid checkout paid and lets a failed one be retried", () => {
    expect(canMoveCheckout("paid", "failed")).toBe(false);
    expect(canMoveCheckout("paid", "processing")).toBe(false);
    expect(canMoveCheckout("failed", "processing")).toBe(true);
    expect(canMoveCheckout("processing", "paid")).toBe(true);
    expect(checkoutStatusForAttempt("completed")).toBe("paid");
    expect(checkoutStatusForAttempt("pending")).toBe("processing");
  });
});
