import { describe, expect, it } from "vitest";
import { withPageName, withSiteName } from "./page-title";

describe("page titles", () => {
  it("put the site's name in the page's language after the page's own", () => {
    expect(withSiteName("Apmokėjimas · Bank checkout", "Mokėjimas per banką")).toBe(
      "Apmokėjimas · Mokėjimas per banką",
    );
    expect(withSiteName("Bank checkout", "Pangamakse")).toBe("Bank checkout");
  });

  it("put the page's new name before the site's", () => {
    expect(withPageName("Payment status · Bank checkout", "Payment received")).toBe("Payment received · Bank checkout");
    expect(withPageName("", "Payment received")).toBe("Payment received");
  });
});
