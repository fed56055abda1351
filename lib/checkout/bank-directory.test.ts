import { describe, expect, it } from "vitest";
import type { Bank } from "../pis";
import { searchKey, toBankViews } from "./bank-directory";

const bank = (id: string, name: string, officialName: string | null = null): Bank => ({
  id,
  name,
  officialName,
  countryCode: "LT",
  isSandbox: true,
  isBeta: false,
});

describe("bank directory", () => {
  it("puts the country's popular banks first, in order of use, then the rest by name", () => {
    const views = toBankViews(
      [bank("ZZZ_LT", "Zeta"), bank("SEB_LT", "SEB"), bank("AAA_LT", "Alpha"), bank("SWEDBANK_LT", "Swedbank")],
      "LT",
    );
    expect(views.map((v) => [v.name, v.popular])).toEqual([
      ["Swedbank", true],
      ["SEB", true],
      ["Alpha", false],
      ["Zeta", false],
    ]);
  });

  it("lets the payer find a bank without typing diacritics, by official or short name", () => {
    const [siauliu] = toBankViews([bank("SIAULIU_LT_SAND", "Šiaulių bankas", "AB Šiaulių bankas")], "LT");
    expect(siauliu!.searchTerms).toContain("siauliu bankas");
    expect(siauliu!.searchTerms).toContain("ab siauliu bankas");
    expect(siauliu!.searchTerms).toContain("sb");
    expect(searchKey("  ŠIAULIŲ ")).toBe("siauliu");
  });
});
