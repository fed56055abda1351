import { StartPaymentInput } from "@/lib/checkout/start-payment";
import type { Locale, PaymentMethod } from "@/lib/checkout/types";

/** The payment form's values and what they lead to; the rules are in payment-form-schema.ts. */

/** here: bank chosen on this page; hosted: bank chosen on the provider's page; card; hybrid. */
export const CHOICES = ["here", "hosted", "card", "hybrid"] as const;
export type Choice = (typeof CHOICES)[number];

export interface PaymentFormValues {
  choice: Choice;
  country: string;
  bankId: string;
  terms: boolean;
  remember: boolean;
}

export type PaymentField = "bankId" | "terms";
/** The message keys the schema (and the server's refusals mapped onto fields) use. */
export type FieldErrorKey = "errors.bank" | "errors.terms";

function methodOf(choice: Choice): PaymentMethod {
  return choice === "card" ? "card" : choice === "hybrid" ? "hybrid" : "bank";
}

/** The fields still missing before Pay can work, in the order the form shows them. */
export function missingFields(v: Pick<PaymentFormValues, "choice" | "bankId" | "terms">): PaymentField[] {
  if (v.choice !== "here") return [];
  return [...(v.bankId ? [] : (["bankId"] as const)), ...(v.terms ? [] : (["terms"] as const))];
}

/** The start request for valid values (`POST /api/checkouts/{id}/payments`). */
export function startRequestOf(v: PaymentFormValues, attemptKey: string, lang: Locale): StartPaymentInput {
  const here = v.choice === "here";
  return {
    method: methodOf(v.choice),
    ...(here ? { bankId: v.bankId } : {}),
    ...(v.choice === "hosted" || v.choice === "hybrid" ? { country: v.country } : {}),
    termsAccepted: here ? v.terms : false,
    attemptKey,
    lang,
  };
}
