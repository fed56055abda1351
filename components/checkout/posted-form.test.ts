import { describe, expect, it } from "vitest";
import { keptChoices, postedForm, queryNotices, refusedLocation } from "./posted-form";

const form = postedForm.parse({
  choice: "here",
  country: "LV",
  bankId: "SWEDBANK_LV_SAND",
  remember: "on",
  terms: "on",
  attemptKey: "k-0001",
  lang: "lv",
});
const queryOf = (location: string) => Object.fromEntries(new URL(location, "http://x").searchParams);

describe("a refused post's way back to the form", () => {
  it("keeps the way to pay, the country, the bank and 'Remember', never the Terms", () => {
    const location = refusedLocation("co_1", form, "rate_limited");
    expect(location).toBe(
      "/checkout/co_1?lang=lv&refused=rate_limited&choice=here&country=LV&bank=SWEDBANK_LV_SAND&remember=on",
    );
    expect(keptChoices(queryOf(location), "same-origin")).toEqual({
      choice: "here",
      country: "LV",
      bankId: "SWEDBANK_LV_SAND",
      remember: true,
      showAllBanks: false,
    });
  });

  it("drops 'Remember' when saving was what was refused, and keeps nothing for the saved account's Pay", () => {
    expect(queryOf(refusedLocation("co_1", form, "saving_unavailable")).remember).toBeUndefined();
    expect(refusedLocation("co_1", { ...form, choice: "saved" }, "no_saved_account")).toBe(
      "/checkout/co_1?lang=lv&refused=no_saved_account",
    );
  });

  it("keeps the bank search the form sent without scripts, trimmed and at most 64 characters", () => {
    expect(keptChoices({ country: "LT", q: "  šiaul " }, "same-origin")).toMatchObject({
      country: "LT",
      search: "šiaul",
    });
    expect(keptChoices({ q: "x".repeat(100) }, "same-origin").search).toHaveLength(64);
    expect(keptChoices({ q: "   " }, "same-origin").search).toBeUndefined();
    expect(keptChoices({ q: ["a", "b"] }, "same-origin").search).toBeUndefined();
  });

  it("keeps only well-formed choices from the query; the page then keeps only those it offers", () => {
    expect(keptChoices({ choice: "steal", country: "lv", bank: "<script>", remember: "yes" }, "same-origin")).toEqual({
      choice: undefined,
      country: undefined,
      bankId: undefined,
      remember: false,
      showAllBanks: false,
    });
    expect(keptChoices({ choice: ["here"], country: "LVA" }, "same-origin")).toMatchObject({
      choice: undefined,
      country: undefined,
    });
  });

  it("keeps nothing when the page was not reached from our own pages: another site, the address bar, or no header", () => {
    const crafted = queryOf(refusedLocation("co_1", form, "rate_limited"));
    for (const fetchSite of ["cross-site", "same-site", "none", null])
      expect(keptChoices(crafted, fetchSite)).toEqual({ remember: false, showAllBanks: false });
  });

  it("shows the whole bank list when asked, from anywhere: it chooses nothing for the payer", () => {
    for (const fetchSite of ["same-origin", "cross-site", null])
      expect(keptChoices({ banks: "all" }, fetchSite).showAllBanks).toBe(true);
    expect(keptChoices({ banks: ["all"] }, "same-origin").showAllBanks).toBe(false);
    expect(keptChoices({ banks: "some" }, "same-origin").showAllBanks).toBe(false);
  });
});

describe("what the checkout's query may make the page say", () => {
  const crafted = { refused: "already_paid", stopped: "1", saved: "forgotten" };

  it("says why our own post came back, that the payment was stopped, or that the account was forgotten", () => {
    expect(queryNotices(crafted, "same-origin", null)).toEqual({
      refused: "already_paid",
      stopped: true,
      saved: "forgotten",
    });
  });

  it("says none of it for a link from anywhere else: another site, the address bar, or no header", () => {
    for (const fetchSite of ["cross-site", "same-site", "none", null])
      expect(queryNotices(crafted, fetchSite, null)).toEqual({ stopped: false });
  });

  it("says how saving the account went (the provider's redirect, from its own site) only when the checkout's record agrees", () => {
    expect(queryNotices({ saved: "linked" }, "cross-site", "linked")).toEqual({ stopped: false, saved: "linked" });
    expect(queryNotices({ saved: "declined" }, null, "declined").saved).toBe("declined");
    expect(queryNotices({ saved: "linked" }, "cross-site", null).saved).toBeUndefined();
    expect(queryNotices({ saved: "linked" }, "same-origin", "declined").saved).toBeUndefined();
  });
});
