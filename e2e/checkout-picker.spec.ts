import { expect, test, type Page } from "@playwright/test";
import { expectNoAxeViolations } from "./axe";
import { chooseCountry, createCheckout, payWithBank, sandboxPayments } from "./journey";

const banks = (page: Page) => page.getByRole("radiogroup", { name: "Your bank" }).getByRole("radio");

test("the payer chooses a bank on our page and lands straight on that bank's login", async ({ page, request }) => {
  const reference = `pick-${Date.now()}`;
  const checkoutId = await createCheckout(request, { reference });
  await page.goto(`/checkout/${checkoutId}`);

  // Logos and names, the country's popular banks first.
  await expect(banks(page).first()).toHaveAccessibleName("Swedbank");
  await expect(page.locator(".bank-option img").first()).toBeVisible();
  await expect(page.getByRole("img", { name: "Scan to pay on your phone" })).toBeVisible();
  await expect(page.getByText("This checkout uses a test payment project.")).toBeVisible();
  await expectNoAxeViolations(page);

  await page.getByRole("radio", { name: "Šiaulių bankas" }).check();
  await expect(page.getByTestId("consent-from")).toHaveText("Šiaulių bankas");
  await payWithBank(page, "Šiaulių bankas");
  await expect(page.getByRole("heading", { name: "Log in to Šiaulių bankas" })).toBeVisible();
  expect((await sandboxPayments(request, reference)).map((p) => p.bankId)).toEqual(["SIAULIU_LT_SAND"]);
});

test("the bank list is one radio group the keyboard can use", async ({ page, request }) => {
  const checkoutId = await createCheckout(request);
  await page.goto(`/checkout/${checkoutId}`);
  await banks(page).first().focus();
  await page.keyboard.press("ArrowDown");
  await expect(banks(page).nth(1)).toBeChecked();
  await expect(banks(page).nth(1)).toBeFocused();
  // From the search box, Down goes to the results (typed again if the page was not yet live).
  const search = page.getByRole("searchbox", { name: "Search banks" });
  await expect(async () => {
    await search.fill("lum");
    await expect(banks(page)).toHaveCount(1, { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await page.keyboard.press("ArrowDown");
  await expect(page.getByRole("radio", { name: "Luminor" })).toBeFocused();
});

test("search ignores case and diacritics, knows short names, and says when nothing matches", async ({
  page,
  request,
}) => {
  const checkoutId = await createCheckout(request);
  await page.goto(`/checkout/${checkoutId}`);
  const search = page.getByRole("searchbox", { name: "Search banks" });

  await search.fill("siauliu");
  await expect(banks(page)).toHaveCount(1);
  await expect(banks(page).first()).toHaveAccessibleName("Šiaulių bankas");
  await expect(page.getByRole("status").filter({ hasText: "Banks found: 1" })).toBeAttached();

  await search.fill("SWED");
  await expect(banks(page)).toHaveCount(1);
  await expect(banks(page).first()).toHaveAccessibleName("Swedbank");

  await search.fill("zzqx");
  await expect(banks(page)).toHaveCount(0);
  await expect(page.getByText("No bank matches “zzqx”.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Choose my bank on the next page" })).toBeVisible();
  await expectNoAxeViolations(page);

  await search.fill("");
  await expect(banks(page)).toHaveCount(6);
});

test("switching the country shows that country's banks, and the payment goes to one of them", async ({
  page,
  request,
}) => {
  const reference = `lv-${Date.now()}`;
  const checkoutId = await createCheckout(request, { reference });
  await page.goto(`/checkout/${checkoutId}`);
  await expect(page.getByRole("radio", { name: "Šiaulių bankas" })).toBeVisible();

  await chooseCountry(page, "LV", () =>
    expect(page.getByRole("radio", { name: "Šiaulių bankas" })).toHaveCount(0, { timeout: 2_000 }),
  );
  await expect(page.getByRole("radio", { name: "Citadele" })).toBeVisible();
  await expect(page.getByRole("radio", { name: "Šiaulių bankas" })).toHaveCount(0);
  await expect(banks(page)).toHaveCount(4);
  await expectNoAxeViolations(page);

  await payWithBank(page, "Citadele");
  expect((await sandboxPayments(request, reference)).map((p) => p.bankId)).toEqual(["CITADELE_LV_SAND"]);
});

test("a country without banks says so and offers the provider's own bank choice", async ({ page, request }) => {
  const checkoutId = await createCheckout(request);
  await page.route(/\/api\/banks\?country=EE/, (route) => route.fulfill({ json: { country: "EE", banks: [] } }));
  await page.goto(`/checkout/${checkoutId}`);
  await chooseCountry(page, "EE", () =>
    expect(page.getByText("There are no banks to choose from in Estonia.")).toBeVisible({ timeout: 2_000 }),
  );
  await expectNoAxeViolations(page);
  await page.getByRole("button", { name: "Choose my bank on the next page" }).click();
  await expect(page.getByRole("radio", { name: "Choose my bank on the next page" })).toBeChecked();
});

test("the bank used last time comes first on the next checkout, labelled as last used", async ({ page, request }) => {
  const first = await createCheckout(request);
  await page.goto(`/checkout/${first}`);
  await payWithBank(page, "Luminor");

  const second = await createCheckout(request);
  await page.goto(`/checkout/${second}`);
  const top = banks(page).first();
  await expect(top).toHaveAccessibleName("Luminor");
  await expect(top).toHaveAccessibleDescription("Last used");
  await expect(banks(page).nth(1)).toHaveAccessibleName("Swedbank");
  await expectNoAxeViolations(page);
});

test("a country with 3,000 banks stays quick: a few are drawn, search narrows at once, 'Show all' reveals the rest", async ({
  page,
  request,
}) => {
  const names = ["Šiaulių", "Rīgas", "Tallinna", "Ūkio", "Kauno", "Pärnu", "Jūrmalas", "Vilniaus"];
  const many = Array.from({ length: 3000 }, (_, i) => {
    const name = `${names[i % names.length]} kredito unija ${i + 1}`;
    return {
      id: `BANK_${i}`,
      name,
      officialName: null,
      logoUrl: null,
      countryCode: "LV",
      popular: false,
      searchTerms: [name.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase()],
    };
  });
  await page.route(/\/api\/banks\?country=LV/, (route) => route.fulfill({ json: { country: "LV", banks: many } }));
  const checkoutId = await createCheckout(request);
  await page.goto(`/checkout/${checkoutId}`);
  await chooseCountry(page, "LV", () => expect(banks(page)).toHaveCount(48, { timeout: 2_000 }));
  await expect(page.getByRole("button", { name: "Show all 3000 banks" })).toBeVisible();

  const search = page.getByRole("searchbox", { name: "Search banks" });
  const started = Date.now();
  await search.pressSequentially("jurmalas 2999", { delay: 20 });
  await expect(banks(page)).toHaveCount(1);
  await expect(banks(page).first()).toHaveAccessibleName("Jūrmalas kredito unija 2999");
  expect(Date.now() - started).toBeLessThan(3_000);

  await search.fill("kauno");
  await expect(page.getByRole("button", { name: "Show all 375 banks" })).toBeVisible();
  await expectNoAxeViolations(page, { include: ".bank-picker" });
  await page.getByRole("button", { name: "Show all 375 banks" }).click();
  await expect(banks(page)).toHaveCount(375);
  // The button is gone; focus moves to the first bank it revealed.
  await expect(banks(page).nth(48)).toBeFocused();
});

/**
 * A slow phone: the page is on screen and usable seconds before its code has run. Holds the
 * page's scripts until `release` is called, so the test acts on the server-rendered form.
 */
async function holdScripts(page: Page) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/_next/static/chunks/**", async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

test("a country chosen before the page came alive stays chosen, with its banks", async ({ page, request }) => {
  const release = await holdScripts(page);
  await page.goto(`/checkout/${await createCheckout(request)}`, { waitUntil: "commit" });
  const country = page.getByRole("combobox", { name: "Country of your bank" });
  await country.selectOption("LV");
  release();

  await expect(page.getByRole("radio", { name: "Citadele" })).toBeVisible();
  await expect(page.getByRole("radio", { name: "Šiaulių bankas" })).toHaveCount(0);
  await expect(country).toHaveValue("LV");
});

test("a search and the Terms ticked before the page came alive are kept, and Pay goes through", async ({
  page,
  request,
}) => {
  const reference = `early-${Date.now()}`;
  const release = await holdScripts(page);
  await page.goto(`/checkout/${await createCheckout(request, { reference })}`, { waitUntil: "commit" });
  await page.getByRole("searchbox", { name: "Search banks" }).fill("lum");
  await page.getByRole("checkbox", { name: /Terms and Conditions/ }).check();
  release();

  await expect(banks(page)).toHaveCount(1);
  await expect(page.getByRole("searchbox", { name: "Search banks" })).toHaveValue("lum");
  await page.getByRole("radio", { name: "Luminor" }).check();
  await expect(page.getByRole("checkbox", { name: /Terms and Conditions/ })).toBeChecked();
  await page.getByRole("button", { name: /^Pay/ }).click();
  await page.waitForURL(/localhost:\d+\/login\//);
  expect((await sandboxPayments(request, reference)).map((p) => p.bankId)).toEqual(["LUMINOR_LT_SAND"]);
});

test("Pay pressed before the page came alive goes to the bank all the same, once", async ({ page, request }) => {
  const reference = `early-pay-${Date.now()}`;
  await holdScripts(page);
  await page.goto(`/checkout/${await createCheckout(request, { reference })}`, { waitUntil: "commit" });
  await page.getByRole("radio", { name: "Luminor" }).check();
  await page.getByRole("checkbox", { name: /Terms and Conditions/ }).check();
  // The browser posts the form itself, twice: the second press must not make a second payment.
  await page.getByRole("button", { name: /^Pay/ }).dblclick();
  // Two posts: the second aborts the first's navigation, which waitForURL may report as a failure.
  await expect(page).toHaveURL(/localhost:\d+\/login\//);
  expect((await sandboxPayments(request, reference)).map((p) => p.bankId)).toEqual(["LUMINOR_LT_SAND"]);
});

test("a bank chosen before the page came alive is the one paid with", async ({ page, request }) => {
  const reference = `early-bank-${Date.now()}`;
  const release = await holdScripts(page);
  await page.goto(`/checkout/${await createCheckout(request, { reference })}`, { waitUntil: "commit" });
  await page.getByRole("radio", { name: "Šiaulių bankas" }).check();
  await page.getByRole("checkbox", { name: /Terms and Conditions/ }).check();
  release();

  await expect(page.getByTestId("consent-from")).toHaveText("Šiaulių bankas");
  await page.getByRole("button", { name: /^Pay/ }).click();
  await page.waitForURL(/localhost:\d+\/login\//);
  expect((await sandboxPayments(request, reference)).map((p) => p.bankId)).toEqual(["SIAULIU_LT_SAND"]);
});
