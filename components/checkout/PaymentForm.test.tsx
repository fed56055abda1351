// @vitest-environment happy-dom
import { cleanup, render } from "@testing-library/react";
import { serverHtml } from "@/components/testing/server-html";
import { afterEach, describe, expect, it } from "vitest";
import type { BankView } from "@/lib/checkout/contract";
import { pickMessages } from "@/lib/i18n";
import { AskAgain } from "./AskAgain";
import { PaymentForm, type PaymentFormProps } from "./PaymentForm";

const props = (over: Partial<PaymentFormProps> = {}): PaymentFormProps => ({
  checkoutId: "co_test",
  locale: "en",
  methods: { bank: true, card: false, hybrid: false },
  countries: [{ code: "LT", name: "Lithuania" }],
  defaultCountry: "LT",
  initialBanks: { country: "LT", banks: [] },
  startNewAttempt: false,
  offerSave: false,
  amountText: "€12.50",
  payee: "Demo Shop UAB",
  termsUrl: "https://example.test/terms",
  privacyUrl: "https://example.test/privacy",
  notice: null,
  post: { action: "/checkout/co_test/pay", attemptKey: "form-key-0001" },
  messages: pickMessages("en", ["pay.", "errors.", "payError.", "apiError.", "picker.", "common.", "saved."]),
  ...over,
});

const tree = (over: Partial<PaymentFormProps>) => <PaymentForm {...props(over)} />;

function formOf(over: Partial<PaymentFormProps> = {}) {
  return render(tree(over)).container.querySelector("form")!;
}

afterEach(cleanup);

describe("PaymentForm as the browser posts it by itself (app/checkout/[checkoutId]/pay)", () => {
  it("carries the country whether or not the payer can switch it, as the page's own Pay sends it", () => {
    const one = new FormData(formOf());
    expect(one.getAll("country")).toEqual(["LT"]);
    cleanup();
    const two = new FormData(
      formOf({
        countries: [
          { code: "LT", name: "Lithuania" },
          { code: "LV", name: "Latvia" },
        ],
      }),
    );
    expect(two.getAll("country")).toEqual(["LT"]);
  });

  it("posts to the pay route with the attempt key and language; in a frame, not at all", () => {
    const form = formOf();
    expect(form.getAttribute("method")).toBe("post");
    expect(form.getAttribute("action")).toBe("/checkout/co_test/pay");
    expect(new FormData(form).get("attemptKey")).toBe("form-key-0001");
    expect(new FormData(form).get("lang")).toBe("en");
    cleanup();
    const framed = formOf({ post: undefined });
    expect(framed.getAttribute("action")).toBeNull();
    expect(new FormData(framed).get("attemptKey")).toBeNull();
  });
});

/** The form's HTML as the server sends it: what the payer sees before the page's code runs. */
function formHtml(over: Partial<PaymentFormProps>): Document {
  return serverHtml(tree(over));
}

describe("PaymentForm's HTML, before its code runs", () => {
  const bank: BankView = {
    id: "SEB_LT_SAND",
    name: "SEB",
    officialName: null,
    logoUrl: null,
    countryCode: "LT",
    popular: true,
    linkable: true,
    searchTerms: [],
  };
  it("shows the way to pay, the bank and 'Remember' it starts from (a refused post's choices) as chosen", () => {
    const hosted = formHtml({ methods: { bank: true, card: true, hybrid: false }, initialChoice: "hosted" });
    const checked = [...hosted.querySelectorAll<HTMLInputElement>('input[name="choice"]')].filter((i) =>
      i.hasAttribute("checked"),
    );
    expect(checked.map((i) => i.value)).toEqual(["hosted"]);

    const here = formHtml({
      initialBanks: { country: "LT", banks: [bank] },
      initialBankId: "SEB_LT_SAND",
      offerSave: true,
      rememberByDefault: true,
    });
    expect(here.querySelector('input[name="choice"][value="here"]')?.hasAttribute("checked")).toBe(true);
    expect(here.querySelector('input[name="bankId"][value="SEB_LT_SAND"]')?.hasAttribute("checked")).toBe(true);
    expect(here.querySelector('input[name="remember"]')?.hasAttribute("checked")).toBe(true);
    expect(here.querySelector('input[name="terms"]')?.hasAttribute("checked")).toBe(false);
  });
});

describe("a long bank list, without the page's code", () => {
  const many: BankView[] = Array.from({ length: 60 }, (_, i) => ({
    id: `BANK${i}_LT_SAND`,
    name: `Bank ${String(i).padStart(2, "0")}`,
    officialName: null,
    logoUrl: null,
    countryCode: "LT",
    popular: false,
    linkable: false,
    searchTerms: [],
  }));
  const post = {
    action: "/checkout/co_test/pay",
    attemptKey: "form-key-0001",
    showAllBanks: <AskAgain path="/checkout/co_test" label="Show all 60 banks" name="banks" value="all" />,
  };
  const banksIn = (doc: Document) => doc.querySelectorAll('input[name="bankId"]').length;

  it("shows the first 48, and a button that asks the page again for all of them with the form as it stands", () => {
    const doc = formHtml({ initialBanks: { country: "LT", banks: many }, post });
    expect(banksIn(doc)).toBe(48);
    // The page's own "Show all" needs its code; the one in <noscript> submits the form itself.
    const button = doc.querySelector<HTMLButtonElement>('noscript button[name="banks"]');
    expect(button?.textContent).toBe("Show all 60 banks");
    expect(button?.type).toBe("submit");
    expect(button?.value).toBe("all");
    expect(button?.getAttribute("formmethod")).toBe("get");
    expect(button?.getAttribute("formaction")).toBe("/checkout/co_test");
    expect(button?.form).toBe(doc.querySelector("form"));
  });

  it("shows every bank when the page was asked for all of them, and no button for more", () => {
    const doc = formHtml({ initialBanks: { country: "LT", banks: many }, post, initialShowAll: true });
    expect(banksIn(doc)).toBe(60);
    expect(doc.body.innerHTML).not.toContain("Show all");
  });
});
