import { expect, test } from "@playwright/test";
import { createPayment, routeShop } from "../lib/sandbox/e2e-helpers";
import { expectNoAxeViolations } from "./axe";

// `lang` on the payment: every hosted page in en, lt, lv and et, with the html lang attribute set.

const LANGUAGES = {
  en: {
    chooseBank: "Choose your bank",
    continue: "Continue",
    username: "Username",
    password: "Password",
    logIn: "Log in",
    confirm: "Confirm payment",
    approve: "Approve",
    done: "Payment approved",
    card: "Pay by card",
    cardNumber: "Card number",
  },
  lt: {
    chooseBank: "Pasirinkite banką",
    continue: "Tęsti",
    username: "Naudotojo vardas",
    password: "Slaptažodis",
    logIn: "Prisijungti",
    confirm: "Patvirtinkite mokėjimą",
    approve: "Patvirtinti",
    done: "Mokėjimas patvirtintas",
    card: "Mokėti kortele",
    cardNumber: "Kortelės numeris",
  },
  lv: {
    chooseBank: "Izvēlieties banku",
    continue: "Turpināt",
    username: "Lietotājvārds",
    password: "Parole",
    logIn: "Pieslēgties",
    confirm: "Apstipriniet maksājumu",
    approve: "Apstiprināt",
    done: "Maksājums apstiprināts",
    card: "Maksāt ar karti",
    cardNumber: "Kartes numurs",
  },
  et: {
    chooseBank: "Valige oma pank",
    continue: "Jätka",
    username: "Kasutajanimi",
    password: "Parool",
    logIn: "Logi sisse",
    confirm: "Kinnitage makse",
    approve: "Kinnita",
    done: "Makse kinnitatud",
    card: "Maksa kaardiga",
    cardNumber: "Kaardi number",
  },
};

test.beforeEach(async ({ page }) => {
  await routeShop(page);
});

for (const [lang, t] of Object.entries(LANGUAGES)) {
  // axe checks each page in English: the pages are the same in every language but for their words
  // (a word missing in a language fails the typecheck: lib/sandbox/i18n.ts types every language as
  // Messages), and each check costs a second of CI.
  const checkA11y = lang === "en" ? expectNoAxeViolations : async () => {};

  test(`the bank payment pages speak ${lang}`, async ({ page }) => {
    const { confirmLink } = await createPayment({ query: `?lang=${lang}` });
    await page.goto(confirmLink);
    await expect(page.locator("html")).toHaveAttribute("lang", lang);
    await expect(page.getByRole("heading", { name: t.chooseBank })).toBeVisible();
    await checkA11y(page);
    await page.getByText("SEB", { exact: true }).click();
    await page.getByRole("button", { name: t.continue }).click();

    await page.getByLabel(t.username).fill("test");
    await page.getByLabel(t.password).fill("1234");
    await checkA11y(page);
    await page.getByRole("button", { name: t.logIn, exact: true }).click();

    await expect(page.getByRole("heading", { name: t.confirm })).toBeVisible();
    await expect(page.locator("html")).toHaveAttribute("lang", lang);
    await checkA11y(page);
    await page.getByRole("button", { name: t.approve, exact: true }).click();
    await expect(page.getByRole("heading", { name: "Back at the shop" })).toBeVisible();
    await page.goBack();
    await expect(page.getByRole("heading", { name: t.done })).toBeVisible();
    await checkA11y(page);
  });

  test(`the card and method pages speak ${lang}`, async ({ page }) => {
    const { confirmLink } = await createPayment({ query: `?lang=${lang}`, card: true });
    await page.goto(confirmLink);
    await expect(page.locator("html")).toHaveAttribute("lang", lang);
    await checkA11y(page);
    await page.getByRole("button", { name: t.card }).click();
    await expect(page.getByLabel(t.cardNumber)).toBeVisible();
    await checkA11y(page);
  });
}
