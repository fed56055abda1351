import { expect, test, type Page } from "@playwright/test";
import { createCheckout, signInToBackoffice } from "./journey";

/*
 * WCAG 1.4.10 and 1.4.12: at 320 CSS px, and with the text spacing a reader may force on every
 * page, nothing runs off the side of the screen (only tables scroll, in their own region).
 */

/** WCAG 1.4.12's text spacing, forced as a reader's style sheet would. */
const TEXT_SPACING =
  "* { line-height: 1.5 !important; letter-spacing: 0.12em !important; word-spacing: 0.16em !important; } p { margin-bottom: 2em !important; }";

/** How far the page reaches beyond the window's width, and what reaches furthest. */
const overflow = (page: Page) =>
  page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const beyond = [...document.body.querySelectorAll("*")]
      .filter((el) => !el.closest("[role=region][tabindex]") && el.getBoundingClientRect().right > width + 1)
      .map((el) => `${el.tagName.toLowerCase()}.${el.className} right=${Math.round(el.getBoundingClientRect().right)}`);
    return { scrollWidth: document.documentElement.scrollWidth, width, beyond: beyond.slice(0, 5) };
  });

async function expectNoSidewaysScroll(page: Page) {
  const seen = await overflow(page);
  expect(seen.beyond).toEqual([]);
  expect(seen.scrollWidth).toBeLessThanOrEqual(seen.width);
}

test.use({ viewport: { width: 320, height: 700 } });

test("the back office's checkout page fits 320 px, with and without wider text spacing", async ({ page, request }) => {
  const checkoutId = await createCheckout(request, {
    reference: `ORDER-2026-${Date.now()}-000000123456789`,
    description: "Order 1 with a rather long description for a shop",
    returnUrl: `${process.env.E2E_APP_URL}/thanks/after/a/rather/long/path?order=000000123456789`,
  });
  await signInToBackoffice(page);
  await page.goto(`/backoffice/checkouts/${checkoutId}`);
  await expect(page.getByRole("heading", { name: "Summary" })).toBeVisible();
  await expectNoSidewaysScroll(page);
  await page.addStyleTag({ content: TEXT_SPACING });
  await expectNoSidewaysScroll(page);
});

test("the ways to pay fit 320 px in Lithuanian with wider text spacing", async ({ page, request }) => {
  const checkoutId = await createCheckout(request);
  await page.goto(`/checkout/${checkoutId}?lang=lt`);
  await expect(page.getByRole("group", { name: "Kaip norite mokėti?" })).toBeVisible();
  await expectNoSidewaysScroll(page);
  await page.addStyleTag({ content: TEXT_SPACING });
  await expectNoSidewaysScroll(page);
});
