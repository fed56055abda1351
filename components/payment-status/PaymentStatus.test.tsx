// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AttemptView, CheckoutStatusView } from "@/lib/checkout/contract";
import { serverHtml } from "@/components/testing/server-html";
import { pickMessages } from "@/lib/i18n";
import { PaymentStatus } from "./PaymentStatus";

const attempt = (over: Partial<AttemptView>): AttemptView => ({
  id: "pa_test",
  method: "bank",
  bankId: null,
  statusGroup: "started",
  providerStatus: null,
  abandoned: false,
  duplicate: false,
  createdAt: "2026-11-28T10:00:00.000Z",
  ...over,
});

const status = (over: Partial<CheckoutStatusView>): CheckoutStatusView => ({
  id: "co_test",
  status: "open",
  final: false,
  amount: "24.90",
  currency: "EUR",
  returnUrl: "https://shop.example/thanks",
  attempt: null,
  failureReason: null,
  ...over,
});

const LANDING = "/checkout/co_test/return";

/** The landing's status card as the server sends it: what the payer sees before (or without) its code. */
function landing(initial: CheckoutStatusView) {
  const doc = serverHtml(
    <PaymentStatus
      checkoutId="co_test"
      checkoutHref="/checkout/co_test"
      checkAgainLink={<a href={LANDING}>Check again</a>}
      initial={initial}
      messages={pickMessages("en", ["status.", "common.returnToShop", "common.tryAgain"])}
    />,
  );
  const links = [...doc.querySelectorAll("a")].map((a) => ({ text: a.textContent, href: a.getAttribute("href") }));
  return { heading: doc.querySelector("h1")?.textContent, text: doc.body.textContent ?? "", links };
}

describe("the landing when nothing is being paid", () => {
  it("a payment the payer stopped, then cancelled at the bank: not paid, nothing taken, a way to pay; never 'do not pay again'", () => {
    // What /status answers in that case (the abandoned attempt is the newest).
    const shown = landing(
      status({ attempt: attempt({ statusGroup: "failed", abandoned: true }), failureReason: "cancelled_by_payer" }),
    );
    expect(shown.heading).toBe("This order is not paid yet");
    expect(shown.text).toContain("no money has been taken");
    expect(shown.text).not.toMatch(/pay again|Confirming/i);
    expect(shown.links).toContainEqual({ text: "Go to payment", href: "/checkout/co_test" });
    // Nothing will change by itself: no "Check again".
    expect(shown.links.map((l) => l.text)).not.toContain("Check again");
  });

  it("a checkout with no payment at all says the same", () => {
    const shown = landing(status({ attempt: null }));
    expect(shown.heading).toBe("This order is not paid yet");
    expect(shown.links).toContainEqual({ text: "Go to payment", href: "/checkout/co_test" });
  });

  it("a payment the payer stopped but the bank accepted after all is money on its way: do not pay again", () => {
    const shown = landing(status({ attempt: attempt({ statusGroup: "pending", abandoned: true }) }));
    expect(shown.heading).toBe("Your bank is processing the payment");
    expect(shown.text).toContain("Please do not pay again.");
    expect(shown.links.map((l) => l.text)).not.toContain("Go to payment");
  });
});

describe("the landing while a payment is under way (unchanged)", () => {
  it("a payment started at the bank is being confirmed, with no way to pay again", () => {
    const shown = landing(status({ attempt: attempt({ statusGroup: "started" }) }));
    expect(shown.heading).toBe("Confirming your payment…");
    expect(shown.text).toContain("there is no need to pay again");
    expect(shown.links.map((l) => l.text)).toEqual(["Check again", "Return to the shop"]);
  });

  it("a payment the bank accepted says the bank is processing it", () => {
    const shown = landing(status({ status: "processing", attempt: attempt({ statusGroup: "pending" }) }));
    expect(shown.heading).toBe("Your bank is processing the payment");
    expect(shown.links.map((l) => l.text)).toEqual(["Check again", "Return to the shop"]);
  });
});

describe("the landing after a card payment speaks of the card, not of a bank", () => {
  const byCard = (over: Partial<AttemptView>, checkout: Partial<CheckoutStatusView> = {}) =>
    landing(status({ attempt: attempt({ method: "card", ...over }), ...checkout }));

  it("being confirmed", () => {
    const shown = byCard({ statusGroup: "started" });
    expect(shown.heading).toBe("Confirming your payment…");
    expect(shown.text).toContain("there is no need to pay again");
    expect(shown.text).not.toMatch(/bank/i);
  });

  it("received", () => {
    const shown = byCard({ statusGroup: "completed" }, { status: "paid", final: true });
    expect(shown.heading).toBe("Payment received");
    expect(shown.text).toContain("Your card payment is confirmed.");
    expect(shown.text).not.toMatch(/bank/i);
  });

  it("accepted and still being completed", () => {
    const shown = byCard({ statusGroup: "pending" }, { status: "processing" });
    expect(shown.heading).toBe("Your card payment is being completed");
    expect(shown.text).toContain("Please do not pay again.");
    expect(shown.text).not.toMatch(/bank/i);
  });

  it("declined: the card was declined, nothing was taken, and another card or the bank is offered", () => {
    const shown = byCard({ statusGroup: "failed" }, { status: "open", failureReason: "refused_by_bank" });
    expect(shown.heading).toBe("Payment failed");
    expect(shown.text).toContain("Your card was declined.");
    expect(shown.text).toContain("No money was taken from your card.");
    expect(shown.text).toContain("another card, or pay by bank");
    expect(shown.text).not.toMatch(/your bank|another bank/i);
  });

  it("a bank payment's landing still speaks of the bank", () => {
    const shown = landing(
      status({ attempt: attempt({ statusGroup: "failed" }), status: "open", failureReason: "refused_by_bank" }),
    );
    expect(shown.text).toContain("Your bank rejected the payment.");
    expect(shown.text).toContain("the same or another bank");
  });
});

describe("the landing when the server cannot be reached", () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it("Check again goes away when pressed, and focus moves to the status heading, which is said once", async () => {
    // The first ask fails; the second is still on its way while the test looks.
    const fetch = vi.fn<() => Promise<Response>>(() => new Promise(() => {}));
    fetch.mockImplementationOnce(() => Promise.reject(new TypeError("Failed to fetch")));
    vi.stubGlobal("fetch", fetch);
    render(
      <PaymentStatus
        checkoutId="co_test"
        checkoutHref="/checkout/co_test"
        checkAgainLink={null}
        initial={null}
        messages={pickMessages("en", ["status.", "common.returnToShop", "common.tryAgain"])}
      />,
    );
    // The follower's code is fetched after the page (a first import here: give it time on a busy machine).
    const again = await screen.findByRole("button", { name: "Check again" }, { timeout: 10_000 });
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("We could not check your payment");
    again.focus();
    await act(async () => fireEvent.click(again));
    expect(screen.queryByRole("button", { name: "Check again" })).toBeNull();
    const heading = screen.getByRole("heading", { level: 1, name: "Confirming your payment…" });
    expect(document.activeElement).toBe(heading);
    // Read out once: by the focus, not also by the polite status region.
    expect(heading.closest("[role=status], [aria-live]")).toBeNull();
    expect(screen.getByRole("status").textContent).not.toContain("Confirming your payment…");
    expect(screen.getByRole("status").textContent).toContain("We are waiting for your bank");
    expect(fetch).toHaveBeenCalledTimes(2);
  });
});
