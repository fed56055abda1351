// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { pickMessages } from "@/lib/i18n";
import { SavedAccountPanel } from "./SavedAccountPanel";

const CONFIRM_LINK = "https://bank.example.test/confirm/abc";

/** Requests the panel sent; the start call answers with the provider's link. */
const sent: string[] = [];
globalThis.fetch = (async (input: RequestInfo | URL) => {
  sent.push(String(input));
  return new Response(JSON.stringify({ confirmLink: CONFIRM_LINK }), {
    status: 201,
    headers: { "Content-Type": "application/json" },
  });
}) as typeof fetch;

const panel = () => (
  <SavedAccountPanel
    checkoutId="co_test"
    locale="en"
    amountText="€12.50"
    account={{ state: "active", bankId: "SWEDBANK_LT", bankName: "Swedbank", maskedIban: "LT** 1234", covers: true }}
    startNewAttempt={false}
    termsUrl="https://example.test/terms"
    privacyUrl="https://example.test/privacy"
    messages={pickMessages("en", ["pay.", "errors.", "payError.", "apiError.", "picker.", "common.", "saved."])}
    onPayAnotherWay={() => {}}
    onForgotten={() => {}}
  />
);

/**
 * Inside the merchant's page: the top window is another one, and it refuses to move (the click
 * on Pay is too long ago), so leaveTo cannot be sure the payer left.
 */
const topMoves: string[] = [];
const refusedTop = {
  location: {
    set href(link: string) {
      topMoves.push(link);
      throw new DOMException("Not allowed to navigate the top window", "SecurityError");
    },
  },
};

describe("SavedAccountPanel inside the merchant's page", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    Object.defineProperty(window, "top", { configurable: true, get: () => refusedTop });
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
    delete (window as { top?: unknown }).top;
    sent.length = 0;
    topMoves.length = 0;
  });

  it("offers the link to the bank, as the bank form does, when the window has not left 2.5 s after Pay", async () => {
    render(panel());
    fireEvent.click(screen.getByRole("button", { name: "Pay €12.50 from this account" }));
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(sent).toEqual(["/api/checkouts/co_test/payments"]);
    expect(topMoves).toEqual([CONFIRM_LINK]);
    expect(screen.getByRole<HTMLButtonElement>("button", { name: "Taking you to your bank…" }).disabled).toBe(true);
    expect(screen.queryByRole("link", { name: "Continue to your bank" })).toBeNull();

    await act(() => vi.advanceTimersByTimeAsync(2_500));
    const link = screen.getByRole("link", { name: "Continue to your bank" });
    expect(link.getAttribute("href")).toBe(CONFIRM_LINK);
    expect(link.getAttribute("target")).toBe("_top");
  });
});
