import { describe, expect, it } from "vitest";
import { amountProblem, fromMinor, normaliseAmount, toMinor } from "./money";

describe("money", () => {
  it("converts decimal strings to minor units exactly, with no floating point drift", () => {
    expect(toMinor("0.10", "EUR") + toMinor("0.20", "EUR")).toBe(30n);
    expect(toMinor("12.5", "EUR")).toBe(1250n);
    expect(toMinor("1234567890.99", "EUR")).toBe(123456789099n);
  });

  it("writes minor units back as the currency's canonical decimal string", () => {
    expect(fromMinor(1250n, "EUR")).toBe("12.50");
    expect(fromMinor(5n, "EUR")).toBe("0.05");
    expect(normaliseAmount("7", "EUR")).toBe("7.00");
  });

  it("names what is wrong with an amount", () => {
    expect(amountProblem("12.50", "EUR")).toBeNull();
    expect(amountProblem("12.505", "EUR")).toMatch(/at most 2 decimal places/);
    expect(amountProblem("1,50", "EUR")).toMatch(/decimal string/);
    expect(amountProblem("-1.00", "EUR")).toMatch(/decimal string/);
    expect(amountProblem("0.00", "EUR")).toMatch(/greater than zero/);
    expect(amountProblem("1e3", "EUR")).toMatch(/decimal string/);
    expect(amountProblem("10.00", "XXX")).toMatch(/not supported/);
  });
});
