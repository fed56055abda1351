import { useEffect, useRef, useState, type BaseSyntheticEvent } from "react";
import { useController, useForm, useWatch, type Resolver } from "react-hook-form";
import type { Locale } from "@/lib/checkout/types";
import type { BanksResponse } from "@/lib/checkout/contract";
import type { MessagesFor } from "@/lib/i18n/format";
import { rememberBank, useLastUsedBank } from "@/components/bank-picker/last-used";
import { prefetchBanks, useBanksQuery } from "@/components/bank-picker/use-banks-query";
import { ApiError, fetchJson } from "@/components/query/fetch-json";
import { tellParent } from "@/components/embed/frame-events";
import { attemptKeyFor, clearAttemptKey } from "./attempt-key";
import { useChangedBeforeLive } from "./early-input";
import { explain, linkToFollow, type PayErrorKey } from "./pay-request";
import { missingFields, startRequestOf, type Choice, type PaymentField, type PaymentFormValues } from "./payment-form";
import { useLeaveForBank } from "./use-leave-for-bank";

/**
 * zod and its resolver are a chunk of their own, fetched when the payer first reaches for the
 * form (ADR 12): evaluating them is a long task on a phone, which is better spent when the payer
 * acts than while the page is coming up. A check before they arrive waits for them.
 */
const loadRules = () => import("./payment-form-schema");
const warmRules = () => void loadRules();
const lazyResolver: Resolver<PaymentFormValues> = async (...args) => (await loadRules()).paymentFormResolver(...args);

export interface PaymentFormOptions {
  checkoutId: string;
  locale: Locale;
  methods: { bank: boolean; card: boolean; hybrid: boolean };
  /** The bank picker alone (embedded in the merchant's page): no choice of method. */
  bankOnly?: boolean;
  countries: { code: string; name: string }[];
  defaultCountry: string;
  /** The default country's banks, loaded with the page. */
  initialBanks: BanksResponse | null;
  /** The stored attempt key belongs to an attempt that is over: the first Pay starts a new one. */
  startNewAttempt: boolean;
  /** The shop named its customer and the provider allows linking: offer "Remember this bank account". */
  offerSave: boolean;
  /** The way to pay to start with, when it is offered (the one a refused post chose). */
  initialChoice?: Choice;
  /** Bank to start with, e.g. the saved account's bank when it must be saved again. */
  initialBankId?: string;
  /** The default country's bank search to start with (the form searched without scripts). */
  initialSearch?: string;
  /** Start with the default country's whole bank list (the form asked for it without scripts). */
  initialShowAll?: boolean;
  /** Start with "Remember this bank account" ticked (the payer had one saved). */
  rememberByDefault?: boolean;
  /** The page's words: a refusal is told in its code's own only when they have it (pay-request.ts). */
  messages: MessagesFor<"apiError.">;
}

/** Where Pay sends the request, and which field of the answer is the link to follow. */
interface Leave {
  url: string;
  body: object;
  linkField: "confirmLink" | "authorizationLink";
}

/** The ways to pay this checkout offers, in the order shown. */
function choicesOf(methods: PaymentFormOptions["methods"], bankOnly = false): Choice[] {
  if (bankOnly) return ["here"];
  const choices: Choice[] = [
    ...(methods.bank ? (["here", "hosted"] as const) : []),
    ...(methods.card ? (["card"] as const) : []),
    ...(methods.hybrid ? (["hybrid"] as const) : []),
  ];
  return choices.length > 0 ? choices : ["here"];
}

/**
 * The payment form's state and actions: react-hook-form holds the values and validates them with
 * the zod schema (on blur and on submit, again on every change once submitted), the bank list is a
 * query per country, and Pay is one request. Server refusals about a field land on that field.
 */
export function usePaymentForm(o: PaymentFormOptions) {
  const offered = choicesOf(o.methods, o.bankOnly);
  const form = useForm<PaymentFormValues>({
    resolver: lazyResolver,
    mode: "onBlur",
    reValidateMode: "onChange",
    defaultValues: {
      choice: o.initialChoice && offered.includes(o.initialChoice) ? o.initialChoice : offered[0],
      country: o.countries.some((c) => c.code === o.defaultCountry)
        ? o.defaultCountry
        : (o.countries[0]?.code ?? o.defaultCountry),
      bankId: o.initialBankId ?? "",
      terms: false,
      remember: o.rememberByDefault ?? false,
    },
  });
  const [choice, country, bankId, terms, remember] = useWatch({
    control: form.control,
    name: ["choice", "country", "bankId", "terms", "remember"],
  });
  // Inside the merchant's page the bank picker stands alone until the payer asks to choose the bank
  // on the next page; from then on both ways show, so the payer can go back to the list.
  const [hostedAsked, setHostedAsked] = useState(false);
  const choices: Choice[] = o.bankOnly && hostedAsked ? ["here", "hosted"] : offered;

  // "Choose my bank on the next page" goes away with the bank list it sits in: focus moves to the
  // way to pay it chose, which says what happens now and has the way back beside it.
  const focusChoice = useRef(false);
  useEffect(() => {
    if (!focusChoice.current) return;
    focusChoice.current = false;
    document.querySelector<HTMLInputElement>('input[name="choice"]:checked')?.focus();
  }, [choice]);

  const chooseCountry = (code: string) => {
    form.setValue("country", code);
    form.setValue("bankId", "");
  };
  useChangedBeforeLive("#country", (code) => o.countries.some((c) => c.code === code) && chooseCountry(code));

  const banks = useBanksQuery(country, o.initialBanks);
  const lastUsedId = useLastUsedBank(country);
  const chosenBank = (banks.status === "ready" ? banks.banks : []).find((b) => b.id === bankId) ?? null;

  const here = choice === "here";
  // Saving needs a bank chosen here (linking starts at that bank) that allows it.
  const canSave = here && o.offerSave && chosenBank?.linkable !== false;
  const saving = canSave && remember && chosenBank !== null;

  const bankField = useController({ control: form.control, name: "bankId" }).field;
  const newAttemptPending = useRef(o.startNewAttempt);
  const [payError, setPayError] = useState<{ key: PayErrorKey; retry: boolean } | null>(null);
  const [reloading, setReloading] = useState(false);
  // In the merchant's page, the link to the bank, offered when the window has not left by itself.
  const { stuckLink, leave: leaveForBank } = useLeaveForBank();

  // Pay: asking the server, then (still paying) on the way to the bank. Never repeated by itself; the attempt key
  // makes a deliberate retry safe. A plain request, not a react-query mutation: nothing to cache,
  // and the library stays out of the page's first load (ADR 26).
  const [paying, setPaying] = useState(false);
  async function pay(values: PaymentFormValues) {
    setPayError(null);
    setPaying(true);
    const id = encodeURIComponent(o.checkoutId);
    const leave: Leave =
      saving && chosenBank
        ? {
            url: `/api/checkouts/${id}/saved-account`,
            body: { bankId: chosenBank.id, termsAccepted: values.terms, lang: o.locale },
            linkField: "authorizationLink",
          }
        : {
            url: `/api/checkouts/${id}/payments`,
            body: startRequestOf(values, attemptKeyFor(o.checkoutId, newAttemptPending), o.locale),
            linkField: "confirmLink",
          };
    let link: string;
    try {
      const answer = await fetchJson<Record<string, unknown>>(leave.url, {
        method: "POST",
        body: JSON.stringify(leave.body),
      });
      link = linkToFollow(answer[leave.linkField]);
    } catch (error) {
      setPaying(false);
      refused(error);
      return;
    }
    if (here && chosenBank) rememberBank(country, chosenBank.id);
    // The whole page goes to the bank (never a frame); Pay stays disabled meanwhile.
    leaveForBank(link);
  }
  function refused(error: unknown) {
    if (error instanceof ApiError && error.code === "terms_required") {
      form.setValue("terms", false);
      form.setError("terms", { type: "server", message: "errors.terms" }, { shouldFocus: true });
      return;
    }
    // Saving turned out impossible: the next Pay pays without it.
    if (error instanceof ApiError && error.code === "saving_unavailable") form.setValue("remember", false);
    const what = explain(error, o.messages);
    tellParent("error", { code: error instanceof ApiError && error.code ? error.code : "network" });
    if (what.newKey) clearAttemptKey(o.checkoutId);
    setPayError({ key: what.key, retry: what.retry && !what.reload });
    // The server's page shows what is going on (an attempt in flight, paid, expired).
    if (what.reload) {
      setReloading(true);
      window.location.reload();
    }
  }
  const leaving = paying || reloading;

  // Another way to pay: errors about the bank and the Terms no longer apply, or apply again.
  const choiceChanged = () =>
    form.formState.isSubmitted ? void form.trigger() : form.clearErrors(["bankId", "terms"]);

  // Invalid: react-hook-form focuses the first field in error (the bank list, then the Terms).
  const submit = (event?: BaseSyntheticEvent) =>
    form.handleSubmit((values) => {
      if (!leaving) void pay(values);
    })(event);

  return {
    form,
    fields: {
      choice: form.register("choice", { onChange: choiceChanged }),
      terms: form.register("terms"),
      remember: form.register("remember"),
    },
    /** Where react-hook-form moves focus when the bank is missing: the picker's handle. */
    bankRef: bankField.ref,
    chooseBank: (id: string) => {
      bankField.onChange(id);
      const bank = banks.status === "ready" ? banks.banks.find((b) => b.id === id) : undefined;
      tellParent("bank-selected", { bankId: id, bankName: bank?.name ?? id });
    },
    choices,
    values: { choice, country, bankId, terms, remember },
    banks,
    lastUsedId,
    chosenBank,
    canSave,
    saving,
    /** Pressed Pay and the browser is on its way to the bank (or about to reload). */
    leaving,
    /** Fields Pay still needs, shown as a hint below the button before any submit. */
    missing: missingFields({ choice, bankId, terms }),
    payError,
    /** The bank's link, when the window should have left for it by now (embedded only). */
    stuckLink,
    focusField: (field: PaymentField) => form.setFocus(field),
    /** For the form's first focus or touch: the rules are on their way before the first check. */
    warmRules,
    submit,
    /** Try again after a refusal: the same values, the same attempt key unless the attempt is over. */
    retry: () => void submit(),
    /** Nothing to choose here: let the provider's page do the choosing. */
    chooseHosted: () => {
      focusChoice.current = true;
      setHostedAsked(true);
      form.setValue("choice", "hosted");
      choiceChanged();
    },
    chooseCountry,
    /** The payer reaches for the country switch: fetch the other countries' lists ahead. */
    prefetchCountries: () => prefetchBanks(o.countries.map((c) => c.code).filter((c) => c !== country)),
  };
}
