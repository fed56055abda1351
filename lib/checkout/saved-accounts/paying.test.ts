import { describe, expect, it } from "vitest";
import { balanceCovers, maskIban } from "./paying";

describe("balanceCovers", () => {
  const bal = (type: string, amount: string, currencyCode = "EUR") => ({ type, amount, currencyCode });
  it("compares the available balance exactly, in minor units", () => {
    expect(balanceCovers([bal("interimAvailable", "12.50")], "12.50", "EUR")).toBe(true);
    expect(balanceCovers([bal("interimAvailable", "12.49")], "12.50", "EUR")).toBe(false);
    // 0.1 + 0.2 style traps do not apply: no floating point anywhere.
    expect(balanceCovers([bal("interimAvailable", "0.30")], "0.3", "EUR")).toBe(true);
  });
  it("prefers what can be spent now over what was booked", () => {
    expect(balanceCovers([bal("closingBooked", "500.00"), bal("interimAvailable", "5.00")], "10.00", "EUR")).toBe(
      false,
    );
  });
  it("treats an overdrawn account as not covering, and other currencies as unknown", () => {
    expect(balanceCovers([bal("interimAvailable", "-0.50")], "0.01", "EUR")).toBe(false);
    expect(balanceCovers([bal("interimAvailable", "900.00", "PLN")], "1.00", "EUR")).toBeNull();
    expect(balanceCovers([], "1.00", "EUR")).toBeNull();
  });
});

describe("maskIban", () => {
  it("keeps the country, check digits and last four characters only", () => {
    expect(maskIban("LT60 1010 0123 4567 8901")).toBe("LT60 •••• 8901");
    expect(maskIban("short")).toBe("••••");
  });
});
