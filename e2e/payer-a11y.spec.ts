import { expect, test } from "@playwright/test";
import { BANK_LOGIN, createCheckout } from "./journey";

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

const SITE_NAMES = [
  { lang: "lt", site: "Mokėjimas per banką", checkout: "Apmokėjimas", embed: "Mokėti per banką" },
  { lang: "lv", site: "Maksājums ar banku", checkout: "Apmaksa", embed: "Maksāt ar banku" },
  { lang: "et", site: "Pangamakse", checkout: "Maksmine", embed: "Maksa pangaga" },
] as const;

test("a translated page's title is in its language to the end, the site's name included", async ({ page, request }) => {
  const checkoutId = await createCheckout(request);
  for (const l of SITE_NAMES) {
    await page.goto(`/checkout/${checkoutId}?lang=${l.lang}`);
    await expect(page).toHaveTitle(`${l.checkout} · ${l.site}`);
    await page.goto(`/checkout/${checkoutId}/embed?lang=${l.lang}`);
    await expect(page).toHaveTitle(`${l.embed} · ${l.site}`);
  }
  await page.goto(`/checkout/${checkoutId}?lang=en`);
  await expect(page).toHaveTitle("Checkout · Bank checkout");
});

test("the landing page's title says what its heading says, in the page's language", async ({ page, request }) => {
  const checkoutId = await createCheckout(request);
  await page.goto(`/checkout/${checkoutId}?lang=lt`);
  await page.getByRole("radio", { name: "Swedbank", exact: true }).check();
  await page.locator("#terms").check();
  await page.getByRole("button", { name: /^Mokėti/ }).click();
  await page.waitForURL(/localhost:\d+\/login\//);
  // The bank's page speaks Lithuanian too: its fields and buttons by their ids and forms.
  await page.locator("#username").fill(BANK_LOGIN.username);
  await page.locator("#password").fill(BANK_LOGIN.password);
  await page.locator('form[action$="/login"] button[type="submit"]').click();
  await page.locator('form[action$="/approve"] button.primary').click();
  await page.waitForURL(new RegExp(`/checkout/${checkoutId}/return`));
  await expect(page.getByRole("heading", { level: 1, name: "Mokėjimas gautas" })).toBeVisible();
  await expect(page).toHaveTitle("Mokėjimas gautas · Mokėjimas per banką");
});
