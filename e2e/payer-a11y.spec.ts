import { expect, test } from "@playwright/test";
import { createCheckout } from "./journey";

/* What a screen reader finds on the payer's pages: only what is shown, named in the page's language. */

test("a bank search that matches nothing leaves no empty required radio group behind", async ({ page, request }) => {
  const checkoutId = await createCheckout(request);
  await page.goto(`/checkout/${checkoutId}?lang=en`);
  const group = page.getByRole("radiogroup", { name: "Your bank" });
  await expect(group).toBeVisible();
  await page.getByRole("searchbox", { name: "Search banks" }).fill("zzz");
  await expect(page.getByText("No bank matches “zzz”.")).toBeVisible();
  await expect(group).toHaveCount(0);
  await expect(page.locator("#bank-list")).toBeHidden();
});
