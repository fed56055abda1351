"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useEffect, useRef, useState } from "react";
import { Controller, useForm, useWatch, type FieldErrors } from "react-hook-form";
import { z } from "zod";
import type { StartPaymentRequest, StartPaymentResponse } from "@/lib/checkout/types";
import { BankPicker, rememberBank, type BankPickerHandle } from "@/components/bank-picker/BankPicker";
import { ApiError, errorMessage, requestJson } from "@/components/ui/api";
import { formatMoney } from "@/components/ui/money";
import { clearAttemptKey, getAttemptKey } from "./attempt-key";

export const COUNTRIES = [
  { code: "LT", name: "Lithuania" },
  { code: "LV", name: "Latvia" },
  { code: "EE", name: "Estonia" },
] as const;
type CountryCode = (typeof COUNTRIES)[number]["code"];
const COUNTRY_CODES = COUNTRIES.map((c) => c.code) as [CountryCode, ...CountryCode[]];

const TERMS_URL = "https://kevin.eu/terms-conditions";
const PRIVACY_URL = "https://kevin.eu/privacy-policy";

const MESSAGES = {
  bankId: "Choose your bank",
  termsAccepted: "Accept the Terms and Conditions",
} as const;

const schema = z
  .object({
    bankChoice: z.enum(["here", "provider"]),
    country: z.enum(COUNTRY_CODES),
    bankId: z.string(),
    termsAccepted: z.boolean(),
  })
  .superRefine((values, ctx) => {
    if (values.bankChoice !== "here") return;
    if (values.bankId === "") ctx.addIssue({ code: "custom", path: ["bankId"], message: MESSAGES.bankId });
    if (!values.termsAccepted) ctx.addIssue({ code: "custom", path: ["termsAccepted"], message: MESSAGES.termsAccepted });
  });

type FormValues = z.infer<typeof schema>;
type ProblemField = keyof typeof MESSAGES;
const FIELD_ORDER: ProblemField[] = ["bankId", "termsAccepted"];

export interface PaymentFormProps {
  checkoutId: string;
  defaultCountry: string;
  amount: string;
  currency: string;
  creditorName: string;
  /** The previous attempt is over (failed): the first Pay on this page must start a new one. */
  startNewAttempt?: boolean;
}

function safeConfirmLink(link: unknown): string | null {
  if (typeof link !== "string") return null;
  try {
    const url = new URL(link);
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : null;
  } catch {
    return null;
  }
}

export function PaymentForm({
  checkoutId,
  defaultCountry,
  amount,
  currency,
  creditorName,
  startNewAttempt = false,
}: PaymentFormProps) {
  const initialCountry: CountryCode = COUNTRY_CODES.find((c) => c === defaultCountry.toUpperCase()) ?? "LT";
  const { control, register, handleSubmit, setValue, formState } = useForm<FormValues>({
    resolver: zodResolver(schema),
    defaultValues: { bankChoice: "here", country: initialCountry, bankId: "", termsAccepted: false },
    shouldFocusError: false,
  });
  const bankChoice = useWatch({ control, name: "bankChoice" });
  const country = useWatch({ control, name: "country" });

  const [submitting, setSubmitting] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const inFlight = useRef(false);
  const newAttemptPending = useRef(startNewAttempt);
  const bankPickerRef = useRef<BankPickerHandle>(null);
  const termsRef = useRef<HTMLInputElement | null>(null);
  const serverErrorRef = useRef<HTMLDivElement>(null);

  // Back from the bank page restores this page from the bfcache with the button still busy.
  useEffect(() => {
    function onPageShow(event: PageTransitionEvent) {
      if (!event.persisted) return;
      inFlight.current = false;
      setSubmitting(false);
    }
    window.addEventListener("pageshow", onPageShow);
    return () => window.removeEventListener("pageshow", onPageShow);
  }, []);

  useEffect(() => {
    if (serverError) serverErrorRef.current?.focus();
  }, [serverError]);

  function focusField(field: ProblemField) {
    if (field === "bankId") bankPickerRef.current?.focus();
    else termsRef.current?.focus();
  }

  function onInvalid(errors: FieldErrors<FormValues>) {
    setServerError(null);
    const first = FIELD_ORDER.find((f) => errors[f]);
    if (first) focusField(first);
  }

  async function onValid(values: FormValues) {
    if (inFlight.current) return;
    inFlight.current = true;
    setSubmitting(true);
    setServerError(null);

    if (newAttemptPending.current) {
      clearAttemptKey(checkoutId);
      newAttemptPending.current = false;
    }
    const chooseHere = values.bankChoice === "here";
    const body: StartPaymentRequest = {
      method: "bank",
      ...(chooseHere ? { bankId: values.bankId } : {}),
      termsAccepted: chooseHere ? values.termsAccepted : false,
      attemptKey: getAttemptKey(checkoutId),
    };

    try {
      const response = await requestJson<StartPaymentResponse>(
        `/api/checkouts/${encodeURIComponent(checkoutId)}/payments`,
        { method: "POST", body: JSON.stringify(body) },
      );
      const link = safeConfirmLink(response.confirmLink);
      if (!link) throw new ApiError("We could not open your bank's page. Please try again.", 502, null, null);
      if (chooseHere) rememberBank(values.country, values.bankId);
      // The whole page goes to the bank: never an iframe, and the button stays busy meanwhile.
      window.location.assign(link);
    } catch (error) {
      // These answers mean the attempt is over: the next Pay must start a new one, not replay it.
      if (error instanceof ApiError && (error.code === "attempt_failed" || error.code === "provider_error")) {
        clearAttemptKey(checkoutId);
      }
      inFlight.current = false;
      setSubmitting(false);
      setServerError(errorMessage(error));
    }
  }

  const termsField = register("termsAccepted");
  const formatted = formatMoney(amount, currency);
  const problems = FIELD_ORDER.filter((f) => formState.errors[f]);
  const showProblems = formState.isSubmitted && problems.length > 0;
  const chooseHere = bankChoice === "here";

  return (
    <form
      className="stack"
      noValidate
      onSubmit={(event) => void handleSubmit(onValid, onInvalid)(event)}
    >
      {showProblems && (
        <div className="alert alert-error" role="alert" aria-label="Form errors">
          <p>
            <strong>Before you pay:</strong>
          </p>
          <ul>
            {problems.map((field) => (
              <li key={field}>
                <a
                  href={field === "bankId" ? "#bank-picker" : "#terms"}
                  onClick={(event) => {
                    event.preventDefault();
                    focusField(field);
                  }}
                >
                  {MESSAGES[field]}
                </a>
              </li>
            ))}
          </ul>
        </div>
      )}

      <fieldset>
        <legend>How do you want to choose your bank?</legend>
        <div className="choice-list">
          <label className="choice">
            <input type="radio" value="here" {...register("bankChoice")} />
            <span>Choose my bank here</span>
          </label>
          <label className="choice">
            <input type="radio" value="provider" {...register("bankChoice")} />
            <span>Choose my bank on the next page</span>
          </label>
        </div>
      </fieldset>

      {chooseHere ? (
        <>
          <div className="field">
            <label htmlFor="country">Country</label>
            <select
              id="country"
              autoComplete="country"
              {...register("country", {
                onChange: () => setValue("bankId", "", { shouldValidate: formState.isSubmitted }),
              })}
            >
              {COUNTRIES.map((c) => (
                <option key={c.code} value={c.code}>
                  {c.name}
                </option>
              ))}
            </select>
          </div>

          <div id="bank-picker">
            <Controller
              control={control}
              name="bankId"
              render={({ field, fieldState }) => (
                <BankPicker
                  key={country}
                  ref={bankPickerRef}
                  country={country}
                  name="bankId"
                  value={field.value}
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                  errorId={fieldState.error ? "bank-error" : undefined}
                />
              )}
            />
            {formState.errors.bankId && (
              <p id="bank-error" className="field-error">
                {MESSAGES.bankId}
              </p>
            )}
          </div>

          <div>
            <div className="checkbox-row">
              <input
                id="terms"
                type="checkbox"
                aria-invalid={formState.errors.termsAccepted ? true : undefined}
                aria-describedby={formState.errors.termsAccepted ? "terms-error" : undefined}
                {...termsField}
                ref={(element) => {
                  termsField.ref(element);
                  termsRef.current = element;
                }}
              />
              <label htmlFor="terms">
                I agree to the payment service&apos;s{" "}
                <a href={TERMS_URL} target="_blank" rel="noopener noreferrer" aria-describedby="new-tab-note">
                  Terms and Conditions
                </a>{" "}
                and{" "}
                <a href={PRIVACY_URL} target="_blank" rel="noopener noreferrer" aria-describedby="new-tab-note">
                  Privacy Policy
                </a>
              </label>
            </div>
            <span id="new-tab-note" hidden>
              Opens in a new tab
            </span>
            {formState.errors.termsAccepted && (
              <p id="terms-error" className="field-error">
                {MESSAGES.termsAccepted}
              </p>
            )}
          </div>
        </>
      ) : (
        <p className="muted">
          You will choose your bank and accept the payment service&apos;s terms on the next page.
        </p>
      )}

      {serverError && (
        <div className="alert alert-error" role="alert" aria-label="Payment error" tabIndex={-1} ref={serverErrorRef}>
          <p>{serverError}</p>
        </div>
      )}

      <button type="submit" className="btn btn-primary btn-block" disabled={submitting}>
        {submitting ? "Taking you to your bank…" : `Pay ${formatted}`}
      </button>
      <p className="hint">
        You will approve the payment of {formatted} to {creditorName} at your bank.
      </p>
    </form>
  );
}
