import { describe, expect, it } from "vitest";
import { failureReasonOf, normaliseStatus } from "./status";

describe("failureReasonOf", () => {
  it.each([
    [{ code: "RJCT", errorCodes: [20017] }, "insufficient_funds"],
    [{ code: "RJCT", errorCodes: [21100] }, "expired"],
    [{ code: "RJCT", errorCodes: [21101] }, "refused_by_bank"],
    [{ code: "CANC", errorCodes: [21004] }, "cancelled_by_payer"],
    [{ code: null, errorCodes: [21000] }, "cancelled_by_payer"],
    [{ code: "RJCT", errorCodes: [] }, "refused_by_bank"],
    [{ code: "canc", errorCodes: [] }, "cancelled_by_payer"],
    [{ code: "payment_failure", errorCodes: [] }, "refused_by_bank"],
    [{ code: "cancelled", errorCodes: [] }, "cancelled_by_payer"],
    [{ code: "expired", errorCodes: [] }, "expired"],
    [{ code: "ACSC", errorCodes: [10000] }, "unknown"],
    [{ code: null, errorCodes: [] }, "unknown"],
  ] as const)("%o is %s", (status, reason) => {
    expect(failureReasonOf(status)).toBe(reason);
  });

  it("reads a webhook's or status read's normalised status", () => {
    expect(failureReasonOf(normaliseStatus({ group: "failed", bankStatus: "CANC", error: { code: [21001] } }))).toBe(
      "cancelled_by_payer",
    );
  });
});
