import { describe, expect, it } from "vitest";
import { JS_BUDGET, overBudget } from "./js-budget";

describe("the first-load JS budget", () => {
  it("names the page and its growth when it is over its limit, and says nothing within it", () => {
    expect(overBudget("checkout", JS_BUDGET.checkout.limitKib)).toBeNull();
    expect(overBudget("landing", JS_BUDGET.landing.limitKib + 2.34)).toBe(
      `landing first-load JS is ${(JS_BUDGET.landing.limitKib + 2.34).toFixed(1)} KiB gzip: 2.3 KiB over its limit of ${JS_BUDGET.landing.limitKib} KiB (scripts/js-budget.ts)`,
    );
  });

  it("allows the checkout and the embedded picker 160 KiB and the landing 145 KiB at most (issue 52)", () => {
    expect(JS_BUDGET.checkout.limitKib).toBeLessThanOrEqual(160);
    expect(JS_BUDGET.embed.limitKib).toBeLessThanOrEqual(160);
    expect(JS_BUDGET.landing.limitKib).toBeLessThanOrEqual(145);
  });
});
