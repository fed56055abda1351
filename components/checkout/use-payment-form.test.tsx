// @vitest-environment happy-dom
import { act, cleanup, renderHook, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { BanksResponse } from "@/lib/checkout/contract";
import { pickMessages } from "@/lib/i18n";
import { startRequestOf } from "./payment-form";
import { usePaymentForm, type PaymentFormOptions } from "./use-payment-form";

const banks: BanksResponse = {
  country: "LT",
  banks: [
    {
      id: "SWEDBANK_LT",
      name: "Swedbank",
      officialName: null,
      logoUrl: null,
      countryCode: "LT",
      popular: true,
      linkable: true,
    },
  ],
} as BanksResponse;

const options = (over: Partial<PaymentFormOptions> = {}): PaymentFormOptions => ({
  checkoutId: "co_test",
  locale: "en",
  methods: { bank: true, card: true, hybrid: false },
  countries: [{ code: "LT", name: "Lithuania" }],
  defaultCountry: "LT",
  initialBanks: banks,
  startNewAttempt: false,
  offerSave: false,
  messages: pickMessages("en", ["apiError."]),
  ...over,
});

/** Requests the hook sent; none may leave while the form is invalid. */
const sent: string[] = [];
globalThis.fetch = (async (input: RequestInfo | URL) => {
  sent.push(String(input));
  return new Response(
    JSON.stringify({
      type: "about:blank#terms_required",
      title: "Accept the Terms",
      status: 409,
      code: "terms_required",
    }),
    { status: 409, headers: { "Content-Type": "application/problem+json" } },
  );
}) as typeof fetch;

function render(over: Partial<PaymentFormOptions> = {}) {
  return renderHook(() => usePaymentForm(options(over)));
}

afterEach(() => {
  cleanup();
  sent.length = 0;
});

const errorOf = (r: { current: ReturnType<typeof usePaymentForm> }, field: "bankId" | "terms") =>
  r.current.form.getFieldState(field).error?.message;

describe("usePaymentForm", () => {
  it("offers every way the project allows, or the bank picker alone inside the merchant's page", () => {
    expect(render().result.current.choices).toEqual(["here", "hosted", "card"]);
    cleanup();
    expect(render({ bankOnly: true }).result.current.choices).toEqual(["here"]);
  });

  it("inside the merchant's page, choosing the bank on the next page keeps a way back to the bank list", async () => {
    const { result } = render({ bankOnly: true });
    await act(async () => result.current.chooseHosted());
    expect(result.current.values.choice).toBe("hosted");
    expect(result.current.choices).toEqual(["here", "hosted"]);
    await act(async () => result.current.form.setValue("choice", "here"));
    expect(result.current.choices).toEqual(["here", "hosted"]);
  });

  it("refuses Pay without a bank and the Terms, naming both fields with their message keys, and sends nothing", async () => {
    const { result } = render();
    expect(result.current.missing).toEqual(["bankId", "terms"]);
    await act(() => result.current.submit());
    expect(errorOf(result, "bankId")).toBe("errors.bank");
    expect(errorOf(result, "terms")).toBe("errors.terms");
    expect(sent).toEqual([]);
  });

  it("clears a field's error as soon as it is fixed after a submit", async () => {
    const { result } = render();
    await act(() => result.current.submit());
    await act(async () => {
      await result.current.chooseBank("SWEDBANK_LT");
    });
    await waitFor(() => expect(errorOf(result, "bankId")).toBeUndefined());
    expect(errorOf(result, "terms")).toBe("errors.terms");
    expect(result.current.chosenBank?.name).toBe("Swedbank");
  });

  it("needs neither bank nor Terms when the bank is chosen on the provider's page", async () => {
    const { result } = render();
    await act(() => result.current.submit());
    await act(async () => result.current.chooseHosted());
    expect(errorOf(result, "bankId")).toBeUndefined();
    expect(errorOf(result, "terms")).toBeUndefined();
    expect(result.current.missing).toEqual([]);
  });

  it("puts the server's terms_required refusal on the Terms field and unticks it", async () => {
    const { result } = render();
    await act(async () => {
      await result.current.chooseBank("SWEDBANK_LT");
      result.current.form.setValue("terms", true);
    });
    await act(() => result.current.submit());
    await waitFor(() => expect(sent).toEqual(["/api/checkouts/co_test/payments"]));
    await waitFor(() => expect(errorOf(result, "terms")).toBe("errors.terms"));
    expect(result.current.values.terms).toBe(false);
    expect(result.current.leaving).toBe(false);
  });

  it("builds the start request the server expects for each way to pay", () => {
    const values = { choice: "here" as const, country: "LT", bankId: "SWEDBANK_LT", terms: true, remember: false };
    expect(startRequestOf(values, "k1", "lt")).toEqual({
      method: "bank",
      bankId: "SWEDBANK_LT",
      termsAccepted: true,
      attemptKey: "k1",
      lang: "lt",
    });
    expect(startRequestOf({ ...values, choice: "hosted" }, "k1", "en")).toEqual({
      method: "bank",
      country: "LT",
      termsAccepted: false,
      attemptKey: "k1",
      lang: "en",
    });
    expect(startRequestOf({ ...values, choice: "card" }, "k1", "en")).toEqual({
      method: "card",
      termsAccepted: false,
      attemptKey: "k1",
      lang: "en",
    });
  });
});
