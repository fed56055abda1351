"use client";

import { useEffect, useId, useRef, useState, type ReactNode } from "react";
import type { BanksResponse, Locale, PaymentMethod, StartPaymentRequest, StartPaymentResponse } from "@/lib/checkout/types";
import { format, templateParts, type MessagesFor } from "@/lib/i18n/format";
import { BankPicker, type BankPickerHandle } from "@/components/bank-picker/BankPicker";
import { rememberBank, useLastUsedBank } from "@/components/bank-picker/last-used";
import { useBanks } from "@/components/bank-picker/use-banks";
import { ApiError, requestJson } from "@/components/ui/api";
import { attemptKeyFor, clearAttemptKey } from "./attempt-key";
import { explain, linkToFollow, type PayErrorKey } from "./pay-request";

export type FormMessages = MessagesFor<"pay." | "errors." | "payError." | "picker." | "common." | "saved.">;

/** here: bank chosen on this page; hosted: bank chosen on the provider's page; card; hybrid. */
export type Choice = "here" | "hosted" | "card" | "hybrid";
type Problem = "bank" | "terms";

export interface PaymentFormProps {
  checkoutId: string;
  locale: Locale;
  /** The amount as the page shows it ("€24.90"), formatted on the server. */
  amountText: string;
  payee: string;
  methods: { bank: boolean; card: boolean; hybrid: boolean };
  countries: { code: string; name: string }[];
  defaultCountry: string;
  /** The default country's banks, loaded with the page. */
  initialBanks: BanksResponse | null;
  /** The stored attempt key belongs to an attempt that is over: the first Pay starts a new one. */
  startNewAttempt: boolean;
  termsUrl: string;
  privacyUrl: string;
  /** The shop named its customer and the provider allows linking: offer "Remember this bank account". */
  offerSave: boolean;
  /** Bank to start with, e.g. the saved account's bank when it must be saved again. */
  initialBankId?: string;
  /** Start with "Remember this bank account" ticked (the payer had one saved). */
  rememberByDefault?: boolean;
  /** A notice above the form (a failed or stopped attempt), focused when it appears after a change. */
  notice: { text: string; tone: "warning" | "info"; focus: boolean } | null;
  messages: FormMessages;
}

function methodOf(choice: Choice): PaymentMethod {
  return choice === "card" ? "card" : choice === "hybrid" ? "hybrid" : "bank";
}

export function TermsLabel({ template, terms, privacy }: { template: string; terms: ReactNode; privacy: ReactNode }) {
  return (
    <>
      {templateParts(template).map((part, i) =>
        typeof part === "string" ? part : <span key={i}>{part.slot === "terms" ? terms : part.slot === "privacy" ? privacy : null}</span>,
      )}
    </>
  );
}

export function PaymentForm(props: PaymentFormProps) {
  const { checkoutId, locale, amountText, payee, methods, countries, defaultCountry, initialBanks, termsUrl, privacyUrl, notice, offerSave, messages: t } = props;

  const choices: Choice[] = [
    ...(methods.bank ? (["here", "hosted"] as const) : []),
    ...(methods.card ? (["card"] as const) : []),
    ...(methods.hybrid ? (["hybrid"] as const) : []),
  ];
  if (choices.length === 0) choices.push("here");

  const [choice, setChoice] = useState<Choice>(choices[0] ?? "here");
  const [country, setCountry] = useState(countries.some((c) => c.code === defaultCountry) ? defaultCountry : (countries[0]?.code ?? defaultCountry));
  const [bankId, setBankId] = useState(props.initialBankId ?? "");
  const [terms, setTerms] = useState(false);
  const [remember, setRemember] = useState(props.rememberByDefault ?? false);
  const [submitted, setSubmitted] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const [payError, setPayError] = useState<{ key: PayErrorKey; retry: boolean } | null>(null);

  const inFlight = useRef(false);
  const newAttemptPending = useRef(props.startNewAttempt);
  const pickerRef = useRef<BankPickerHandle>(null);
  const termsRef = useRef<HTMLInputElement>(null);
  const payErrorRef = useRef<HTMLDivElement>(null);
  const noticeRef = useRef<HTMLParagraphElement>(null);
  const uid = useId();

  const banksState = useBanks(country, initialBanks);
  const lastUsedId = useLastUsedBank(country);
  const banks = banksState.status === "ready" ? banksState.banks : [];
  const chosenBank = banks.find((b) => b.id === bankId) ?? null;
  const countryName = countries.find((c) => c.code === country)?.name ?? country;

  const here = choice === "here";
  // Saving needs a bank chosen here (linking starts at that bank) that allows it.
  const canSave = here && offerSave && chosenBank?.linkable !== false;
  const saving = canSave && remember && chosenBank !== null;
  const problems: Problem[] = here ? [...(chosenBank ? [] : (["bank"] as const)), ...(terms ? [] : (["terms"] as const))] : [];
  const showProblems = submitted && problems.length > 0;
  const bankInvalid = showProblems && problems.includes("bank");
  const termsInvalid = showProblems && problems.includes("terms");

  useEffect(() => {
    if (payError) payErrorRef.current?.focus();
  }, [payError]);

  useEffect(() => {
    if (notice?.focus) noticeRef.current?.focus();
  }, [notice]);

  function focusProblem(problem: Problem) {
    if (problem === "bank") pickerRef.current?.focus();
    else termsRef.current?.focus();
  }

  async function pay() {
    if (inFlight.current) return;
    setPayError(null);
    if (problems.length > 0) {
      setSubmitted(true);
      focusProblem(problems[0] as Problem);
      return;
    }
    inFlight.current = true;
    setLeaving(true);

    if (saving && chosenBank) {
      await leaveFor(`/api/checkouts/${encodeURIComponent(checkoutId)}/saved-account`, { bankId: chosenBank.id, termsAccepted: terms, lang: locale }, "authorizationLink");
      return;
    }
    const body: StartPaymentRequest = {
      method: methodOf(choice),
      ...(here && chosenBank ? { bankId: chosenBank.id } : {}),
      ...(choice === "hosted" || choice === "hybrid" ? { country } : {}),
      termsAccepted: here ? terms : false,
      attemptKey: attemptKeyFor(checkoutId, newAttemptPending),
      lang: locale,
    };

    await leaveFor(`/api/checkouts/${encodeURIComponent(checkoutId)}/payments`, body, "confirmLink");
  }

  /** Posts the start request and sends the whole page to the link it answers with. */
  async function leaveFor(url: string, body: object, linkField: "confirmLink" | "authorizationLink") {
    try {
      const response = await requestJson<Partial<StartPaymentResponse & { authorizationLink: string }>>(url, {
        method: "POST",
        body: JSON.stringify(body),
      });
      const link = linkToFollow(response[linkField]);
      if (here && chosenBank) rememberBank(country, chosenBank.id);
      // The whole page goes to the bank (never a frame); Pay stays disabled meanwhile.
      window.location.assign(link);
    } catch (error) {
      if (error instanceof ApiError && error.code === "terms_required") {
        inFlight.current = false;
        setLeaving(false);
        setTerms(false);
        setSubmitted(true);
        termsRef.current?.focus();
        return;
      }
      // Saving turned out impossible: the next Pay pays without it.
      if (error instanceof ApiError && error.code === "saving_unavailable") setRemember(false);
      const what = explain(error);
      if (what.newKey) clearAttemptKey(checkoutId);
      if (what.reload) {
        // The server's page shows what is going on (an attempt in flight, paid, expired).
        setPayError({ key: what.key, retry: false });
        window.location.reload();
        return;
      }
      inFlight.current = false;
      setLeaving(false);
      setPayError({ key: what.key, retry: what.retry });
    }
  }

  const missingKey = problems.length === 2 ? "pay.missing.both" : problems[0] === "bank" ? "pay.missing.bank" : problems[0] === "terms" ? "pay.missing.terms" : null;
  const leavingText = saving ? t["saved.leaving"] : choice === "here" || choice === "hosted" ? t["pay.leaving.bank"] : t["pay.leaving.provider"];
  const fromText =
    choice === "here"
      ? (chosenBank?.name ?? t["pay.consent.noBank"])
      : choice === "hosted"
        ? t["pay.consent.nextPage"]
        : choice === "card"
          ? t["pay.consent.card"]
          : t["pay.consent.hybrid"];
  const newTabId = `${uid}-new-tab`;

  return (
    <form
      className="stack payment-form"
      noValidate
      aria-labelledby="pay-heading"
      onSubmit={(event) => {
        event.preventDefault();
        void pay();
      }}
    >
      {notice && (
        <p ref={noticeRef} tabIndex={-1} className={`alert small ${notice.tone === "warning" ? "alert-warning" : "alert-info"}`}>
          {notice.text}
        </p>
      )}

      {showProblems && (
        <div className="alert alert-error" role="alert" aria-label={t["errors.label"]}>
          <p>
            <strong>{t["errors.title"]}</strong>
          </p>
          <ul>
            {problems.map((problem) => (
              <li key={problem}>
                <a
                  href={problem === "bank" ? "#bank-list" : "#terms"}
                  onClick={(event) => {
                    event.preventDefault();
                    focusProblem(problem);
                  }}
                >
                  {problem === "bank" ? t["errors.bank"] : t["errors.terms"]}
                </a>
              </li>
            ))}
          </ul>
        </div>
      )}

      {choices.length > 1 && (
        <fieldset>
          <legend>{t["pay.methodLegend"]}</legend>
          <div className="choice-list">
            {choices.map((c) => (
              <label key={c} className="choice">
                <input
                  type="radio"
                  name="method"
                  value={c}
                  checked={choice === c}
                  onChange={() => setChoice(c)}
                  aria-describedby={`method-hint-${c}`}
                />
                <span className="choice-text">
                  <span>{t[`pay.method.${c}`]}</span>
                  <span className="hint" id={`method-hint-${c}`}>
                    {t[`pay.method.${c}Hint`]}
                  </span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
      )}

      {(choice === "here" || choice === "hosted" || choice === "hybrid") && countries.length > 1 && (
        <div className="field">
          <label htmlFor="country">{t["pay.country"]}</label>
          <select
            id="country"
            value={country}
            onChange={(e) => {
              setCountry(e.target.value);
              setBankId("");
            }}
          >
            {countries.map((c) => (
              <option key={c.code} value={c.code}>
                {c.name}
              </option>
            ))}
          </select>
        </div>
      )}

      {here ? (
        <>
          <div>
            <BankPicker
              key={country}
              ref={pickerRef}
              state={banksState}
              countryName={countryName}
              value={bankId}
              onChange={setBankId}
              lastUsedId={lastUsedId}
              errorId={bankInvalid ? "bank-error" : undefined}
              onUseHosted={methods.bank ? () => setChoice("hosted") : undefined}
              messages={t}
            />
            {bankInvalid && (
              <p id="bank-error" className="field-error">
                {t["errors.bank"]}
              </p>
            )}
          </div>

          <div>
            <div className="checkbox-row">
              <input
                ref={termsRef}
                id="terms"
                type="checkbox"
                checked={terms}
                onChange={(e) => setTerms(e.target.checked)}
                aria-invalid={termsInvalid ? true : undefined}
                aria-describedby={termsInvalid ? "terms-error" : undefined}
              />
              <label htmlFor="terms">
                <TermsLabel
                  template={t["pay.terms"]}
                  terms={
                    <a href={termsUrl} target="_blank" rel="noopener noreferrer" aria-describedby={newTabId}>
                      {t["pay.termsLink"]}
                    </a>
                  }
                  privacy={
                    <a href={privacyUrl} target="_blank" rel="noopener noreferrer" aria-describedby={newTabId}>
                      {t["pay.privacyLink"]}
                    </a>
                  }
                />
              </label>
            </div>
            <span id={newTabId} hidden>
              {t["common.newTab"]}
            </span>
            {termsInvalid && (
              <p id="terms-error" className="field-error">
                {t["errors.terms"]}
              </p>
            )}
          </div>

          {canSave && (
            <div>
              <div className="checkbox-row">
                <input id="remember" type="checkbox" checked={remember} onChange={(e) => setRemember(e.target.checked)} aria-describedby="remember-hint" />
                <label htmlFor="remember">{t["saved.remember"]}</label>
              </div>
              <p className="hint" id="remember-hint">
                {t["saved.rememberHint"]}
              </p>
            </div>
          )}
        </>
      ) : (
        <p className="muted">{choice === "card" ? t["pay.nextPage.card"] : choice === "hybrid" ? t["pay.nextPage.hybrid"] : t["pay.nextPage.hosted"]}</p>
      )}

      <section className="consent" aria-labelledby="consent-heading">
        <h3 id="consent-heading">{t["pay.consent.heading"]}</h3>
        <dl className="summary-list">
          <dt>{t["pay.consent.amount"]}</dt>
          <dd>{amountText}</dd>
          <dt>{t["pay.consent.payee"]}</dt>
          <dd>{payee}</dd>
          <dt>{t["pay.consent.from"]}</dt>
          <dd data-testid="consent-from">{fromText}</dd>
        </dl>
      </section>

      {payError && (
        <div ref={payErrorRef} tabIndex={-1} className="alert alert-error" role="alert" aria-label={t["payError.label"]}>
          <p>{t[payError.key]}</p>
          {payError.retry && (
            <button type="button" className="btn btn-secondary" onClick={() => void pay()}>
              {t["common.tryAgain"]}
            </button>
          )}
        </div>
      )}

      <div>
        <button
          type="submit"
          className="btn btn-primary btn-block"
          disabled={leaving}
          aria-describedby={missingKey ? "pay-missing" : undefined}
        >
          {leaving ? leavingText : format(t["pay.button"], { amount: amountText })}
        </button>
        {missingKey && (
          <p id="pay-missing" className="hint pay-missing">
            {t[missingKey]}
          </p>
        )}
        <p className="visually-hidden" role="status">
          {leaving ? leavingText : ""}
        </p>
        <p className="hint">
          {format(choice === "card" || choice === "hybrid" ? t["pay.afterNote.card"] : t["pay.afterNote"], { amount: amountText, payee })}
        </p>
      </div>
    </form>
  );
}
