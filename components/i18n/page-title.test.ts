import { describe, expect, it } from "vitest";
import { localTitle, withPageName } from "./page-title";

describe("page titles", () => {
  it("put the site's name in the page's language after the page's own", () => {
    expect(localTitle("Apmokėjimas", "Mokėjimas per banką")).toEqual({ absolute: "Apmokėjimas · Mokėjimas per banką" });
  });

  it("put the page's new name before the site's", () => {
    expect(withPageName("Payment status · Bank checkout", "Payment received")).toBe("Payment received · Bank checkout");
    expect(withPageName("", "Payment received")).toBe("Payment received");
  });
});
