import { expect, test } from "@playwright/test";
import { expectNoAxeViolations } from "./axe";
import { countReloads, createCheckout, decideAtBank, MERCHANT_KEY, merchantView, payThenComeBack } from "./journey";

/*
 * The checkout's end by the server's own clock, which no browser clock can move: these tests wait
 * out a real minute. They run in the API v0.2 project (e2e/playwright.config.ts), on its own app
 * and sandbox, so the wait overlaps the main project's tests on the other worker and no fault
 * another spec sets on the main sandbox can reach them. What they check is the app's, not the
 * provider version's. The two minutes overlap: the checkout the last test leaves alone to expire
 * is made before the file's first test, so its minute runs out during that test's own.
 */

let leftAlone: { id: string; endsAt: number };
test.beforeAll(async ({ playwright }, info) => {
  const request = await playwright.request.newContext({ baseURL: info.project.use.baseURL });
  leftAlone = { id: await createCheckout(request, { expiresInMinutes: 1 }), endsAt: Date.now() + 61_000 };
  await request.dispose();
});

test("when the time runs out the page keeps following the payment, and the bank's approval makes it paid", async ({
  page,
  request,
  context,
}) => {
  // The server's own clock must pass the end: it alone decides (a browser's clock cannot move it).
  test.setTimeout(150_000);
  const checkoutId = await createCheckout(request, { expiresInMinutes: 1 });
  await page.goto(`/checkout/${checkoutId}?lang=en`);
  const bankPage = await payThenComeBack(page);
  const seen = countReloads(page);

  await expect(
    page.getByRole("status").filter({ hasText: "The time to pay has run out, but the payment you started" }),
  ).toBeVisible({ timeout: 90_000 });
  await expect(page.getByText("Status: waiting for you to approve the payment at your bank.")).toBeVisible();
  await expect(page.getByRole("heading", { name: "This checkout has expired" })).toHaveCount(0);
  // No other payment can start now, so none is offered in its place.
  await expect(page.getByRole("button", { name: "Choose another bank" })).toHaveCount(0);
  const { expiresAt } = (await (
    await request.get(`/api/checkouts/${checkoutId}`, { headers: { Authorization: `Bearer ${MERCHANT_KEY}` } })
  ).json()) as { expiresAt: string };
  // The page counts from its navigation, which is a few milliseconds before the server rendered it
  // (so it says the time is up no later than the server does): the server's end may be just ahead.
  await expect.poll(() => Date.now() - Date.parse(expiresAt)).toBeGreaterThan(0);
  expect((await merchantView(request, checkoutId)).status).toBe("processing");
  await expectNoAxeViolations(page);

  const bank = await context.newPage();
  await bank.goto(bankPage);
  await decideAtBank(bank, "Approve");
  await expect(page.getByText("Status: your bank has confirmed the payment.")).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText("The time to pay has run out")).toHaveCount(0);
  expect((await merchantView(request, checkoutId)).status).toBe("paid");
  expect(seen.reloads).toBe(0);
});

test("an expired checkout cannot be paid and sends the payer back to the shop to start again", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const checkoutId = leftAlone.id;
  await page.waitForTimeout(Math.max(0, leftAlone.endsAt - Date.now()));
  await page.goto(`/checkout/${checkoutId}`);
  await expect(page.getByRole("heading", { name: "This checkout has expired" })).toBeVisible();
  await expect(page.getByRole("button", { name: /^Pay/ })).toHaveCount(0);
  await expectNoAxeViolations(page);
  await page.getByRole("link", { name: "Return to the shop" }).click();
  // The demo shop is the merchant: it tells the payer and lets them order again.
  await expect(page).toHaveURL(`${test.info().project.use.baseURL}/?checkout=${checkoutId}`);
  await expect(page.getByRole("button", { name: "Checkout" })).toBeVisible();
  expect((await merchantView(request, checkoutId)).status).toBe("expired");
});
