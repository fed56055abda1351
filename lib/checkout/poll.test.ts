import { describe, expect, it } from "vitest";
import { pollUntil, withinMs } from "./poll";

const after = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

describe("withinMs", () => {
  it("gives the work's result when it is in time", async () => {
    expect(await withinMs(after(5, "balance"), 500)).toBe("balance");
  });

  it("gives null when the work is late, and a late failure is dropped", async () => {
    expect(await withinMs(after(300, "late"), 20)).toBeNull();
    const failing = new Promise((_, reject) => setTimeout(() => reject(new Error("late failure")), 50));
    expect(await withinMs(failing, 10)).toBeNull();
    await after(80, null); // an unhandled rejection would fail the run here
  });

  it("passes an early failure on", async () => {
    await expect(withinMs(Promise.reject(new Error("refused")), 500)).rejects.toThrow("refused");
  });
});

describe("pollUntil", () => {
  it("reads until done, and gives the last read at the deadline", async () => {
    let n = 0;
    expect(
      await pollUntil(
        async () => ++n,
        (v) => v >= 3,
        1000,
        5,
      ),
    ).toBe(3);
    expect(
      await pollUntil(
        async () => "pending",
        (v) => v === "done",
        30,
        5,
      ),
    ).toBe("pending");
  });
});
