// @vitest-environment happy-dom
import { describe, expect, it } from "vitest";
import { mount } from "./loader";

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
    expect(iframe.title).toBe("Pay by bank");
    unmount();
    expect(el.querySelector("iframe")).toBeNull();
  });

  it("refuses to mount without a checkout id", () => {
    expect(() => mount(document.createElement("div"), { checkoutId: "" })).toThrow(/checkoutId/);
    expect(() => mount(document.createElement("div"), { checkoutId: "../../api" })).toThrow(/checkoutId/);
  });
});
