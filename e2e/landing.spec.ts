import { expect, test } from "@playwright/test";
import { expectNoAxeViolations } from "./axe";
import {
  approveAndVanish,
  createCheckout,
  decideAtBank,
  forceProviderStatus,
  merchantView,
  payWithBank,
} from "./journey";

const landing = (checkoutId: string) => new RegExp(`/checkout/${checkoutId}/return`);

test("a payment pending at the bank says what happens next, then turns paid by itself", async ({ page, request }) => {
  const checkoutId = await createCheckout(request);
  await page.goto(`/checkout/${checkoutId}`);
  await payWithBank(page);
  // The payer comes back first (pending); the final webhook comes later.
  await decideAtBank(page, "Approve", "pending");
  await page.waitForURL(landing(checkoutId));
  const status = page.getByRole("status");
  await expect(status.getByRole("heading", { name: "Your bank is processing the payment" })).toBeVisible();
  await expect(status).toContainText("do not pay again");
  await expectNoAxeViolations(page);

  const paymentId = new URL(page.url()).searchParams.get("paymentId")!;
  await forceProviderStatus(request, paymentId, { bankStatus: "ACSC" });
  await expect(status.getByRole("heading", { name: "Payment received" })).toBeVisible({ timeout: 20_000 });
  await expect.poll(async () => (await merchantView(request, checkoutId)).status).toBe("paid");
});

test("a payment the bank rejects for lack of funds says so, and offers to try again", async ({ page, request }) => {
  const checkoutId = await createCheckout(request);
  await page.goto(`/checkout/${checkoutId}`);
  await payWithBank(page, "SEB");
  await decideAtBank(page, "Reject (insufficient funds)");
  await page.waitForURL(landing(checkoutId));
  await expect(page.getByRole("heading", { name: "Payment failed" })).toBeVisible();
  await expect(page.getByRole("status")).toContainText("There was not enough money in the account.");
  await expect(page.getByRole("link", { name: "Try again" })).toHaveAttribute("href", `/checkout/${checkoutId}`);
  await expectNoAxeViolations(page);
});

test("a payment stopped on our page, then cancelled at the bank: the landing says the order is not paid and offers to pay", async ({
  page,
  request,
  context,
}) => {
  const checkoutId = await createCheckout(request);
  await page.goto(`/checkout/${checkoutId}?lang=en`);
  await payWithBank(page);
  // In another tab the payer stops the unfinished payment, to pay another way.
  const other = await context.newPage();
  await other.goto(`/checkout/${checkoutId}?lang=en`);
  await other.getByRole("button", { name: "Choose another bank" }).click();
  await expect(other.getByText("The unfinished payment was stopped.")).toBeVisible();
  await other.close();

  // Then cancels at the bank, which sends the payer to the landing.
  await decideAtBank(page, "Cancel");
  await page.waitForURL(landing(checkoutId));
  const status = page.getByRole("status");
  await expect(status.getByRole("heading", { name: "This order is not paid yet" })).toBeVisible();
  await expect(status).toContainText("no money has been taken");
  await expect(page.getByText(/pay again/i)).toHaveCount(0);
  await expectNoAxeViolations(page);
  await page.getByRole("link", { name: "Go to payment" }).click();
  await expect(page.getByRole("button", { name: /^Pay/ })).toBeVisible();
});

test("webhook before redirect: the payer arrives after the webhook and sees the payment received", async ({
  page,
  request,
}) => {
  const checkoutId = await createCheckout(request);
  await page.goto(`/checkout/${checkoutId}`);
  await payWithBank(page);
  const returnUrl = await approveAndVanish(page);
  await expect.poll(async () => (await merchantView(request, checkoutId)).status).toBe("paid");
  await page.unrouteAll();
  await page.goto(returnUrl);
  await expect(page.getByRole("heading", { name: "Payment received" })).toBeVisible();
  expect((await merchantView(request, checkoutId)).timeline.filter((e) => e.to === "paid")).toHaveLength(1);
});

test("the landing page works in another browser, with no cookie or session of the payer", async ({
  page,
  request,
  browser,
}) => {
  const checkoutId = await createCheckout(request);
  await page.goto(`/checkout/${checkoutId}`);
  await payWithBank(page);
  const returnUrl = await approveAndVanish(page);

  // A bank app often reopens the return link in another browser.
  const other = await browser.newContext();
  const fresh = await other.newPage();
  await fresh.goto(returnUrl);
  await expect(fresh.getByRole("heading", { name: "Payment received" })).toBeVisible();
  const back = fresh.getByRole("link", { name: "Return to the shop" });
  await expect(back).toHaveAttribute("href", `${process.env.E2E_APP_URL}/?checkout=${checkoutId}`);
  await other.close();
});
