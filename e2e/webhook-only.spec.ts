import { expect, test } from "@playwright/test";
import { createCheckout, decideAtBank, merchantView, payWithBank } from "./journey";

test("the webhook alone marks the checkout paid when the payer never comes back", async ({ page, request }) => {
  const checkoutId = await createCheckout(request);
  await page.goto(`/checkout/${checkoutId}`);
  await payWithBank(page);

  // The payer approves, then the tab dies before our landing page loads.
  await page.route(/\/checkout\/[^/]+\/return/, (route) => route.abort());
  await decideAtBank(page, "Approve");
  await page.close();

  // The merchant view reads our database only, so only the provider's webhook can have moved it.
  await expect.poll(async () => (await merchantView(request, checkoutId)).status, { timeout: 15_000 }).toBe("paid");
});
