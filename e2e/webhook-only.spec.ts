import { expect, test } from "@playwright/test";
import { approveAndVanish, createCheckout, merchantView, payWithBank } from "./journey";

test("the webhook alone marks the checkout paid when the payer never comes back", async ({ page, request }) => {
  test.setTimeout(60_000);
  const checkoutId = await createCheckout(request);
  await page.goto(`/checkout/${checkoutId}`);
  await payWithBank(page);
  const bank = new URL(page.url());
  // The tab stays on the static page approveAndVanish leaves (see there), which asks our app nothing.
  await approveAndVanish(page);

  // The merchant view reads our database only; its timeline says what moved the status. The wait
  // allows for one failed delivery and the provider's retry (1 s, then 5 s later).
  try {
    await expect.poll(async () => (await merchantView(request, checkoutId)).status, { timeout: 30_000 }).toBe("paid");
  } catch (err) {
    const paymentId = bank.pathname.split("/")[2];
    const deliveries = await (
      await request.get(`${bank.origin}/_sandbox/webhooks?paymentId=${paymentId}`, { timeout: 5_000 })
    ).text();
    throw new Error(`checkout not paid by the webhook; the provider's delivery log: ${deliveries}`, { cause: err });
  }
  const { timeline } = await merchantView(request, checkoutId);
  expect(timeline.find((e) => e.to === "paid")?.source).toBe("webhook");
});
