import { describe, expect, it } from "vitest";
import { cpuMultiplierFor } from "./lighthouse-cpu";

describe("cpuMultiplierFor", () => {
  it("gives the preset's 4x on a host like the one it was tuned on, less on slower hosts", () => {
    expect(cpuMultiplierFor(1533)).toBeCloseTo(4, 1);
    expect(cpuMultiplierFor(1300)).toBe(3);
    expect(cpuMultiplierFor(1050)).toBe(2.5);
    expect(cpuMultiplierFor(800)).toBe(2);
    expect(cpuMultiplierFor(475)).toBe(1.5);
  });

  it("never speeds the CPU up, and grows on faster hosts", () => {
    expect(cpuMultiplierFor(100)).toBe(1);
    expect(cpuMultiplierFor(Number.NaN)).toBe(1);
    expect(cpuMultiplierFor(2000)).toBeCloseTo(6, 1);
  });
});
