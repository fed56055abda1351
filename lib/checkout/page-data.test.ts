import { describe, expect, it } from "vitest";
import { acceptedLanguages, chooseCountry, chooseLocale } from "./page-data";

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
