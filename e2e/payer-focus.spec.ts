import { expect, test } from "@playwright/test";
import { createCheckout, decideAtBank, payWithBank } from "./journey";

/*
 * The payer's pages with a keyboard and a screen reader: a control that goes away when pressed (or
 * when the payment moves on) hands the focus to what replaced it, never to the page's body, where
 * the next Tab starts again at the top and a screen reader says nothing.
 */

/** How long the landing page asks by itself before it offers "Check again" (PaymentStatus.tsx). */
const POLL_CAP_MS = 2 * 60_000;

test("the landing's Check again, after two minutes without an answer, moves focus to the status heading", async ({
  page,
  request,
}) => {
  await page.clock.install();
  const checkoutId = await createCheckout(request);
  await page.goto(`/checkout/${checkoutId}?lang=en`);
  await payWithBank(page);
  // The payer comes back without deciding at the bank: the payment is never confirmed.
  await page.goto(`/checkout/${checkoutId}/return?lang=en`);
  await expect(page.getByRole("heading", { level: 1, name: "Confirming your payment…" })).toBeVisible();
  await page.clock.runFor(POLL_CAP_MS + 1_000);
  await expect(page.getByRole("heading", { level: 1, name: "Still confirming your payment" })).toBeVisible();

  await page.getByRole("button", { name: "Check again" }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("button", { name: "Check again" })).toHaveCount(0);
  const heading = page.getByRole("status").getByRole("heading", { level: 1 });
  await expect(heading).toBeFocused();
  await expect(heading).toHaveText("Confirming your payment…");
});

test("Check again on a payment the bank is processing keeps the focus on the status heading", async ({
  page,
  request,
}) => {
  await page.clock.install();
  const checkoutId = await createCheckout(request);
  await page.goto(`/checkout/${checkoutId}?lang=en`);
  await payWithBank(page);
  await decideAtBank(page, "Approve", "pending");
  await page.waitForURL(new RegExp(`/checkout/${checkoutId}/return`));
  const heading = page.getByRole("heading", { level: 1, name: "Your bank is processing the payment" });
  await expect(heading).toBeVisible();
  await page.clock.runFor(POLL_CAP_MS + 1_000);

  await page.getByRole("button", { name: "Check again" }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("button", { name: "Check again" })).toHaveCount(0);
  await expect(heading).toBeFocused();
});
