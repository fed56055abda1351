import { expect, test } from "@playwright/test";
import { LOCALES, messages } from "../lib/i18n";
import { createCheckout } from "./journey";

/**
 * Issue 52: on a phone (390×844) the first bank is on the first screen in every language, the
 * market whose banks come first (Lithuanian) included, with the order's lines in the summary
 * (issue 54: folded into one line). This spec also runs in the API v0.2 project, whose provider
 * has no card payments: the page without the card choices.
 */

const LINE_ITEMS = [
  { name: "Book", quantity: 2, unitAmount: "7.45" },
  { name: "Mug", quantity: 1, unitAmount: "5.00" },
  { name: "Card", quantity: 2, unitAmount: "1.50" },
  { name: "Gift wrapping", quantity: 1, unitAmount: "2.00" },
];
test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

for (const lang of LOCALES) {
  test(`the first bank is on the first screen in ${lang}, without scrolling`, async ({ page, request }) => {
    const t = messages(lang);
    const checkoutId = await createCheckout(request, { description: "Two books and a mug", lineItems: LINE_ITEMS });
    await page.goto(`/checkout/${checkoutId}?lang=${lang}`);
    const firstBank = page.getByRole("radiogroup", { name: t["picker.label"] }).getByRole("radio").first();
    await expect(firstBank).toHaveAccessibleName(/\S/);
    // The whole choice, its name and logo, not just the top of it.
    await expect(firstBank.locator("xpath=ancestor::label[1]")).toBeInViewport({ ratio: 1 });
    expect(await page.evaluate(() => window.scrollY)).toBe(0);

    // The lines are one tap away, each with its total.
    const items = page.getByText(t["summary.items"].replace("{count}", "4"));
    await expect(page.getByText("2 × Book")).toBeHidden();
    await items.click();
    await expect(page.getByRole("listitem").filter({ hasText: "2 × Book" })).toContainText(/14[.,]90/);
  });
}
