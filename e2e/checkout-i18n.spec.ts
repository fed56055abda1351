import { expect, test, type Page } from "@playwright/test";
import { expectNoAxeViolations } from "./axe";
import { BANK_LOGIN, createCheckout } from "./journey";

/** At the sandbox bank in any language: the form fields by id, the primary buttons by their form. */
async function approveAtBank(page: Page) {
  await page.locator("#username").fill(BANK_LOGIN.username);
  await page.locator("#password").fill(BANK_LOGIN.password);
  await page.locator('form[action$="/login"] button[type="submit"]').click();
  await page.locator('form[action$="/approve"] button.primary').click();
}

const LANGUAGES = [
  { lang: "lt", heading: "Apmokėjimas", pay: /^Mokėti/, bankLabel: "Jūsų bankas", received: "Mokėjimas gautas" },
  { lang: "lv", heading: "Apmaksa", pay: /^Maksāt/, bankLabel: "Jūsu banka", received: "Maksājums saņemts" },
  { lang: "et", heading: "Maksmine", pay: /^Maksa/, bankLabel: "Teie pank", received: "Makse laekus" },
] as const;

for (const l of LANGUAGES) {
  // axe in Lithuanian only, whose words are the longest: the page is the same in each language but
  // for its words, and each check costs a second of CI.
  const checkA11y = l.lang === "lt" ? expectNoAxeViolations : async () => {};

  test(`the checkout, the provider's page and the landing page speak ${l.lang} when the checkout's locale is ${l.lang}`, async ({
    page,
    request,
  }) => {
    const checkoutId = await createCheckout(request, { locale: l.lang });
    await page.goto(`/checkout/${checkoutId}`);
    await expect(page.locator("html")).toHaveAttribute("lang", l.lang);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(l.heading);
    await expect(page.getByRole("button", { name: l.pay })).toBeVisible();
    await expect(page.getByRole("radiogroup", { name: l.bankLabel })).toBeVisible();
    await checkA11y(page);

    // Errors in the page's language are accessible too.
    await page.getByRole("button", { name: l.pay }).click();
    await expect(page.locator(".alert-error")).toBeVisible();
    await checkA11y(page);

    await page.getByRole("radio", { name: "Swedbank", exact: true }).check();
    await page.getByRole("checkbox").check();
    await page.getByRole("button", { name: l.pay }).click();
    await page.waitForURL(/localhost:\d+\/login\//);
    await expect(page.locator("html")).toHaveAttribute("lang", l.lang);

    await approveAtBank(page);
    await page.waitForURL(new RegExp(`/checkout/${checkoutId}/return`));
    await expect(page.locator("html")).toHaveAttribute("lang", l.lang);
    await expect(page.getByRole("heading", { name: l.received })).toBeVisible();
    await checkA11y(page);
  });
}

test("the language switch changes the page, remembers the choice for the landing page, and keeps html[lang] right", async ({
  page,
  request,
}) => {
  const checkoutId = await createCheckout(request);
  await page.goto(`/checkout/${checkoutId}`);
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  const switcher = page.getByRole("navigation", { name: "Language" });
  await expect(switcher.getByRole("link", { name: "English" })).toHaveAttribute("aria-current", "true");

  await switcher.getByRole("link", { name: "Latviešu" }).click();
  await page.waitForURL(/\?lang=lv$/);
  await expect(page.locator("html")).toHaveAttribute("lang", "lv");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Apmaksa");
  await expect(page.getByRole("img", { name: "Skenējiet, lai maksātu tālrunī" })).toBeVisible();
  await expectNoAxeViolations(page);

  // The provider's redirect back carries no ?lang=: the remembered choice decides.
  await page.goto(`/checkout/${checkoutId}/return`);
  await expect(page.locator("html")).toHaveAttribute("lang", "lv");
  await expect(page.getByRole("navigation", { name: "Valoda" })).toBeVisible();
  await expectNoAxeViolations(page);
});

test("Accept-Language chooses the language when nothing else does", async ({ browser, request }) => {
  const context = await browser.newContext({
    locale: "et-EE",
    extraHTTPHeaders: { "Accept-Language": "et-EE,et;q=0.9,en;q=0.5" },
  });
  const page = await context.newPage();
  const checkoutId = await createCheckout(request);
  await page.goto(`/checkout/${checkoutId}`);
  await expect(page.locator("html")).toHaveAttribute("lang", "et");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Maksmine");
  await context.close();
});

test("the accessibility statement is linked from the checkout footer, in the page's language", async ({
  page,
  request,
}) => {
  const checkoutId = await createCheckout(request);
  await page.goto(`/checkout/${checkoutId}?lang=lt`);
  await page.getByRole("contentinfo").getByRole("link", { name: "Prieinamumo pareiškimas" }).click();
  await page.waitForURL(/\/accessibility\?/);
  await expect(page.locator("html")).toHaveAttribute("lang", "lt");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Prieinamumo pareiškimas");
  await expectNoAxeViolations(page);
  await page.getByRole("link", { name: "Grįžti į apmokėjimą" }).click();
  await page.waitForURL(new RegExp(`/checkout/${checkoutId}\\?lang=lt$`));

  await page.goto("/accessibility?lang=en");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Accessibility statement");
  await expect(page.getByText(/WCAG\) 2\.1 at level AA/)).toBeVisible();
  await expectNoAxeViolations(page);
});

test("the QR code for the phone shows on a wide screen only", async ({ browser, request }) => {
  const checkoutId = await createCheckout(request);
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await phone.newPage();
  await page.goto(`/checkout/${checkoutId}`);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByRole("img", { name: "Scan to pay on your phone" })).toBeHidden();
  await expectNoAxeViolations(page);
  await phone.close();
});
