import { describe, expect, it } from "vitest";
import { JS_BUDGET, overBudget } from "./js-budget";

describe("the first-load JS budget", () => {
  it("names the page and its growth when it is over its limit, and says nothing within it", () => {
    expect(overBudget("checkout", JS_BUDGET.checkout.limitKib)).toBeNull();
    expect(overBudget("landing", JS_BUDGET.landing.limitKib + 2.34)).toBe(
      `landing first-load JS is ${(JS_BUDGET.landing.limitKib + 2.34).toFixed(1)} KiB gzip: 2.3 KiB over its limit of ${JS_BUDGET.landing.limitKib} KiB (goal ${JS_BUDGET.landing.goalKib} KiB, scripts/js-budget.ts)`,
    );
  });

  it("never allows a page more than the budget ADR 12 set, and aims below it", () => {
    for (const { limitKib, goalKib } of Object.values(JS_BUDGET)) {
      expect(goalKib).toBeLessThanOrEqual(limitKib);
      expect(limitKib).toBeLessThanOrEqual(171);
    }
  });
});
