// @vitest-environment happy-dom
import { describe, expect, it } from "vitest";
import { messages } from "@/lib/i18n";
import { LOCALES } from "@/lib/checkout/types";
import { FRAME_TITLES, mount } from "./loader";

describe("BankCheckout.mount", () => {
  it("frames the checkout's picker, telling it this page's origin and the language asked for", () => {
    const el = document.createElement("div");
    document.body.append(el);
    const { iframe, unmount } = mount(el, { checkoutId: "co_abcdefghijklmnopqrstuv", locale: "lt" });
    const src = new URL(iframe.src);
    expect(src.pathname).toBe("/checkout/co_abcdefghijklmnopqrstuv/embed");
    expect(src.searchParams.get("parent")).toBe(location.origin);
    expect(src.searchParams.get("lang")).toBe("lt");
    // The frame may send the whole window to the bank only on the payer's click.
    const sandbox = iframe.getAttribute("sandbox")!.split(" ");
    expect(sandbox).toContain("allow-top-navigation-by-user-activation");
    expect(sandbox).not.toContain("allow-top-navigation");
    expect(iframe.title).toBe("Mokėti per banką");
    expect(iframe.lang).toBe("lt");
    unmount();
    expect(el.querySelector("iframe")).toBeNull();
  });

  it("names the frame in the picker's language: the one asked for, else the page's, else English", () => {
    const title = (locale?: string) => mount(document.createElement("div"), { checkoutId: "co_x", locale }).iframe;
    expect(title("lv").title).toBe("Maksāt ar banku");
    document.documentElement.lang = "et-EE";
    expect(title().title).toBe("Maksa pangaga");
    document.documentElement.lang = "fr";
    expect(title().title).toBe("Pay by bank");
    expect(title().lang).toBe("en");
    document.documentElement.lang = "";
    for (const locale of LOCALES) expect(FRAME_TITLES[locale]).toBe(messages(locale)["embed.heading"]);
  });

  it("refuses to mount without a checkout id", () => {
    expect(() => mount(document.createElement("div"), { checkoutId: "" })).toThrow(/checkoutId/);
    expect(() => mount(document.createElement("div"), { checkoutId: "../../api" })).toThrow(/checkoutId/);
  });
});
