import { expect, test } from "@playwright/test";
import { firstLoadJs } from "../scripts/first-load-js";
import { JS_BUDGET, overBudget, type BudgetedPage } from "../scripts/js-budget";
import { createCheckout } from "./journey";

/**
 * Issue 52: the payer's pages stay within their first-load JavaScript budget, measured on the
 * production build these specs run against (the bench's own measure, without Lighthouse: a few
 * requests). Over the limit, the run fails naming the page, the growth, and each script's size.
 */
test("the checkout, the embedded picker and the landing load no more JavaScript than their budget", async ({
  request,
  baseURL,
}, info) => {
  const checkoutId = await createCheckout(request);
  const over: string[] = [];
  for (const page of Object.keys(JS_BUDGET) as BudgetedPage[]) {
    const measured = await firstLoadJs(baseURL!, JS_BUDGET[page].path(checkoutId));
    await info.attach(`${page} first-load JS`, {
      body: JSON.stringify({ kib: measured.kib, bySource: measured.bySource }, null, 2),
      contentType: "application/json",
    });
    const refusal = overBudget(page, measured.kib);
    if (refusal)
      over.push(
        `${refusal}\n${Object.entries(measured.bySource)
          .map(([src, kib]) => `  ${kib.toFixed(1)} KiB  ${src}`)
          .join("\n")}`,
      );
  }
  expect(over.join("\n"), "pages over their first-load JS budget").toBe("");
});
