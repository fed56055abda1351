"use client";

import { useEffect, useRef, type ReactNode } from "react";
import { format, type MessagesFor } from "@/lib/i18n/format";
import { BankPicker } from "@/components/bank-picker/BankPicker";
import { ConsentSummary, ErrorSummary, LeavingStatus, MethodChoice, TermsField } from "./FormParts";
import type { FieldErrorKey } from "./payment-form";
import { usePaymentForm, type PaymentFormOptions } from "./use-payment-form";

export type FormMessages = MessagesFor<
  "pay." | "errors." | "payError." | "apiError." | "picker." | "common." | "saved."
>;

export interface PaymentFormProps extends PaymentFormOptions {
  /** The amount as the page shows it ("€24.90"), formatted on the server. */
  amountText: string;
  payee: string;
  termsUrl: string;
  privacyUrl: string;
  /** A notice above the form (a failed or stopped attempt), focused when it appears after a change. */
  notice: { text: string; tone: "warning" | "info"; focus: boolean } | null;
  /**
   * Where the browser posts the form by itself when Pay is pressed before the page's code has run
   * (a slow phone) or with none, and the attempt key that post carries. None inside a frame: the
   * bank's page must not open in the merchant's frame.
   */
  post?: {
    action: string;
    attemptKey: string;
    /**
     * Without the page's code the bank list follows the country only when the page is asked
     * again: a `<noscript>` button that does, rendered by the server (no code of ours in the page's scripts).
     */
    showBanks?: ReactNode;
    /** The same for the bank search: a `<noscript>` button that asks the page again with it. */
    searchBanks?: ReactNode;
    /** And for "Show all": a `<noscript>` button that asks the page again for the whole bank list. */
    showAllBanks?: ReactNode;
  };
  messages: FormMessages;
}

/** The payment form's view; its state and actions are usePaymentForm's. */
export function PaymentForm(props: PaymentFormProps) {
  const { amountText, payee, methods, countries, termsUrl, privacyUrl, notice, post, messages: t } = props;
  const { bankRef, ...f } = usePaymentForm(props);
  const { choice, country } = f.values;
  const { errors, isSubmitted } = f.form.formState;
  const payErrorRef = useRef<HTMLDivElement>(null);
  const noticeRef = useRef<HTMLParagraphElement>(null);

  const here = choice === "here";
  const countrySwitch = (here || choice === "hosted" || choice === "hybrid") && countries.length > 1;
  const countryName = countries.find((c) => c.code === country)?.name ?? country;
  const bankError = errors.bankId?.message as FieldErrorKey | undefined;
  const termsError = errors.terms?.message as FieldErrorKey | undefined;
  const problems = [
    ...(bankError ? [{ field: "bankId" as const, href: "#bank-list", text: t[bankError] }] : []),
    ...(termsError ? [{ field: "terms" as const, href: "#terms", text: t[termsError] }] : []),
  ];

  useEffect(() => {
    if (f.payError) payErrorRef.current?.focus();
  }, [f.payError]);

  useEffect(() => {
    if (notice?.focus) noticeRef.current?.focus();
  }, [notice]);

  const missingKey =
    f.missing.length === 2
      ? "pay.missing.both"
      : f.missing[0] === "bankId"
        ? "pay.missing.bank"
        : f.missing[0] === "terms"
          ? "pay.missing.terms"
          : null;
  const leavingText = f.saving
    ? t["saved.leaving"]
    : choice === "here" || choice === "hosted"
      ? t["pay.leaving.bank"]
      : t["pay.leaving.provider"];
  const fromText =
    choice === "here"
      ? (f.chosenBank?.name ?? t["pay.consent.noBank"])
      : choice === "hosted"
        ? t["pay.consent.nextPage"]
        : choice === "card"
          ? t["pay.consent.card"]
          : t["pay.consent.hybrid"];

  return (
    <form
      className="stack payment-form"
      noValidate
      method={post ? "post" : undefined}
      action={post?.action}
      aria-labelledby="pay-heading"
      onFocus={f.warmRules}
      onPointerDown={f.warmRules}
      onSubmit={(event) => void f.submit(event)}
    >
      {post && (
        <>
          <input type="hidden" name="attemptKey" value={post.attemptKey} />
          <input type="hidden" name="lang" value={props.locale} />
          {/* What the page's own Pay sends when there is no switch to post it. */}
          {!countrySwitch && <input type="hidden" name="country" value={country} />}
        </>
      )}
      {notice && (
        <p
          ref={noticeRef}
          tabIndex={-1}
          className={`alert small ${notice.tone === "warning" ? "alert-warning" : "alert-info"}`}
        >
          {notice.text}
        </p>
      )}

      {isSubmitted && problems.length > 0 && (
        <ErrorSummary label={t["errors.label"]} title={t["errors.title"]} problems={problems} onFocus={f.focusField} />
      )}

      {f.choices.length > 1 && (
        <MethodChoice choices={f.choices} field={f.fields.choice} checked={choice} messages={t} />
      )}

      {countrySwitch && (
        <div className="field country-field">
          <label htmlFor="country">{t["pay.country"]}</label>
          <select
            id="country"
            name="country"
            value={country}
            onChange={(e) => f.chooseCountry(e.target.value)}
            onFocus={f.prefetchCountries}
            onPointerEnter={f.prefetchCountries}
          >
            {countries.map((c) => (
              <option key={c.code} value={c.code}>
                {c.name}
              </option>
            ))}
          </select>
          {here && post?.showBanks}
        </div>
      )}

      {here ? (
        <>
          <div>
            <BankPicker
              key={country}
              ref={bankRef}
              state={f.banks}
              countryName={countryName}
              value={f.values.bankId}
              onChange={f.chooseBank}
              lastUsedId={f.lastUsedId}
              errorId={bankError ? "bank-error" : undefined}
              onUseHosted={methods.bank ? f.chooseHosted : undefined}
              initialSearch={country === props.defaultCountry ? props.initialSearch : undefined}
              searchButton={post?.searchBanks}
              initialShowAll={country === props.defaultCountry && props.initialShowAll}
              showAllButton={post?.showAllBanks}
              messages={t}
            />
            {bankError && (
              <p id="bank-error" className="field-error">
                {t[bankError]}
              </p>
            )}
          </div>

          <TermsField
            field={f.fields.terms}
            error={termsError ? t[termsError] : null}
            label={t["pay.terms"]}
            terms={{ href: termsUrl, text: t["pay.termsLink"] }}
            privacy={{ href: privacyUrl, text: t["pay.privacyLink"] }}
            newTab={t["common.newTab"]}
          />

          {f.canSave && (
            <div>
              <div className="checkbox-row">
                <input
                  {...f.fields.remember}
                  id="remember"
                  type="checkbox"
                  defaultChecked={f.values.remember}
                  aria-describedby="remember-hint"
                />
                <label htmlFor="remember">{t["saved.remember"]}</label>
              </div>
              <p className="hint" id="remember-hint">
                {t["saved.rememberHint"]}
              </p>
            </div>
          )}
        </>
      ) : (
        <p className="muted">
          {choice === "card"
            ? t["pay.nextPage.card"]
            : choice === "hybrid"
              ? t["pay.nextPage.hybrid"]
              : t["pay.nextPage.hosted"]}
        </p>
      )}

      <ConsentSummary amount={amountText} payee={payee} from={fromText} messages={t} />

      {f.payError && (
        <div
          ref={payErrorRef}
          tabIndex={-1}
          className="alert alert-error"
          role="alert"
          aria-label={t["payError.label"]}
        >
          <p>{t[f.payError.key]}</p>
          {f.payError.retry && (
            <button type="button" className="btn btn-secondary" onClick={f.retry}>
              {t["common.tryAgain"]}
            </button>
          )}
        </div>
      )}

      <div>
        <button
          type="submit"
          className="btn btn-primary btn-block"
          disabled={f.leaving}
          aria-describedby={missingKey ? "pay-missing" : undefined}
        >
          {f.leaving ? leavingText : format(t["pay.button"], { amount: amountText })}
        </button>
        {missingKey && (
          <p id="pay-missing" className="hint pay-missing">
            {t[missingKey]}
          </p>
        )}
        <LeavingStatus
          stuckLink={f.stuckLink}
          text={f.leaving ? leavingText : ""}
          stuck={t["pay.stuck"]}
          follow={t["pay.continue"]}
        />
        <p className="hint">
          {format(choice === "card" || choice === "hybrid" ? t["pay.afterNote.card"] : t["pay.afterNote"], {
            amount: amountText,
            payee,
          })}
        </p>
      </div>
    </form>
  );
}
