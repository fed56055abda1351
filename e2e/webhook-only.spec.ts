import { expect, test } from "@playwright/test";
import { approveAndVanish, createCheckout, merchantView, payWithBank } from "./journey";

test("the webhook alone marks the checkout paid when the payer never comes back", async ({ page, request }) => {
  const checkoutId = await createCheckout(request);
  await page.goto(`/checkout/${checkoutId}`);
  await payWithBank(page);
  await approveAndVanish(page);
  await page.close();

  // The merchant view reads our database only; its timeline says what moved the status.
  await expect.poll(async () => (await merchantView(request, checkoutId)).status, { timeout: 15_000 }).toBe("paid");
  const { timeline } = await merchantView(request, checkoutId);
  expect(timeline.find((e) => e.to === "paid")?.source).toBe("webhook");
});
