import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { accountLinks } from "../db/schema";
import { testDbKinds } from "../db/testing";
import { createCheckout } from "./create-checkout";
import { acceptedLanguages, chooseCountry, chooseLocale, savingOutcome } from "./page-data";
import { continueAfterLinking } from "./saved-accounts/link-return";
import { startLinking } from "./saved-accounts/linking";
import { newPayerHandle } from "./saved-accounts/payer-handle";
import { order, savedAccountsContext } from "./saved-accounts/test-setup";

const countries = ["LT", "LV", "EE"];
const headers = (h: Record<string, string>) => new Headers(h);

describe("language of the checkout page", () => {
  it("takes the payer's explicit choice first, then the merchant's locale, then the browser's", () => {
    expect(chooseLocale({ requested: "lv", checkoutLocale: "lt", acceptLanguage: "et" })).toBe("lv");
    expect(chooseLocale({ requested: "xx", checkoutLocale: "lt", acceptLanguage: "et" })).toBe("lt");
    expect(chooseLocale({ acceptLanguage: "de-DE,et;q=0.8,en;q=0.5" })).toBe("et");
    expect(chooseLocale({ acceptLanguage: "de-DE,fr" })).toBe("en");
  });

  it("honours q-values in Accept-Language, not just the order", () => {
    expect(acceptedLanguages("en;q=0.3, lt-LT;q=0.9")).toEqual([
      { lang: "lt", region: "LT" },
      { lang: "en", region: null },
    ]);
  });
});

describe("country of the bank list", () => {
  it("uses the merchant's hint first", () => {
    expect(chooseCountry({ hint: "EE", headers: headers({ "cf-ipcountry": "LV" }), countries })).toBe("EE");
  });

  it("then the visitor's IP country from the host, then the browser's region or language", () => {
    expect(chooseCountry({ headers: headers({ "cf-ipcountry": "LV", "accept-language": "et-EE" }), countries })).toBe(
      "LV",
    );
    expect(chooseCountry({ headers: headers({ "accept-language": "en-GB,et-EE;q=0.8" }), countries })).toBe("EE");
    expect(chooseCountry({ headers: headers({ "accept-language": "lv" }), countries })).toBe("LV");
  });

  it("ignores countries the provider does not serve and falls back to Lithuania", () => {
    expect(
      chooseCountry({ hint: "DE", headers: headers({ "cf-ipcountry": "XX", "accept-language": "de-DE" }), countries }),
    ).toBe("LT");
  });
});

describe.each(testDbKinds())("how saving the bank account went, as the checkout page may say it (%s)", (kind) => {
  const s = savedAccountsContext(kind);

  it("nothing when the payer did not try to save one while paying this checkout", async () => {
    const checkout = await createCheckout(order("cust-never"), s.ctx);
    expect(await savingOutcome(s.ctx, checkout.id, newPayerHandle())).toBeNull();
  });

  it("declined at the bank", async () => {
    const checkout = await createCheckout(order("cust-no"), s.ctx);
    const start = { bankId: "SWEDBANK_LT_SAND", termsAccepted: true };
    const { handle } = await startLinking(checkout.id, start, undefined, s.ctx);
    const [link] = await s.ctx.db.select().from(accountLinks).where(eq(accountLinks.checkoutId, checkout.id));
    await continueAfterLinking(checkout.id, { requestId: link!.id, status: "failure" }, handle, s.ctx);
    expect(await savingOutcome(s.ctx, checkout.id, handle)).toBe("declined");
  });

  it("saved for this browser; another browser is told nothing of it", async () => {
    const { checkout, handle } = await s.linkWhilePaying("cust-yes");
    expect(await savingOutcome(s.ctx, checkout.id, handle)).toBe("linked");
    expect(await savingOutcome(s.ctx, checkout.id, newPayerHandle())).toBeNull();
    expect(await savingOutcome(s.ctx, checkout.id, undefined)).toBeNull();
  });

  it("not saved because the linking was finished in another browser: both browsers are told so", async () => {
    const { checkout, started, query } = await s.linkAtBank("cust-other-browser");
    const other = newPayerHandle();
    await continueAfterLinking(checkout.id, query, other, s.ctx);
    expect(await savingOutcome(s.ctx, checkout.id, other)).toBe("elsewhere");
    expect(await savingOutcome(s.ctx, checkout.id, started.handle)).toBe("elsewhere");
  });
});
