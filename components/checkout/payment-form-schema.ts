import * as z from "zod/mini";
import type { Locale, PaymentMethod, StartPaymentRequest } from "@/lib/checkout/types";

/**
 * The payment form's values and their rules, for react-hook-form's zod resolver. zod/mini keeps
 * the payer's JavaScript small; the server parses the request it leads to with its own schema and
 * stays the authority. Messages are keys of the message catalogue, so the view shows each field's
 * error in the page's language.
 */

/** here: bank chosen on this page; hosted: bank chosen on the provider's page; card; hybrid. */
export const CHOICES = ["here", "hosted", "card", "hybrid"] as const;
export type Choice = (typeof CHOICES)[number];

export const paymentFormSchema = z
  .object({
    choice: z.enum(CHOICES),
    country: z.string(),
    bankId: z.string(),
    terms: z.boolean(),
    remember: z.boolean(),
  })
  .check(
    z.superRefine((v, ctx) => {
      // Choosing the bank here is client-side bank selection: the provider requires the bank and
      // the payer's acceptance of its Terms. The other ways choose on the provider's page.
      if (v.choice !== "here") return;
      if (!v.bankId) ctx.addIssue({ code: "custom", path: ["bankId"], message: "errors.bank" });
      if (!v.terms) ctx.addIssue({ code: "custom", path: ["terms"], message: "errors.terms" });
    }),
  );

export type PaymentFormValues = z.infer<typeof paymentFormSchema>;
export type PaymentField = "bankId" | "terms";
/** The message keys the schema (and the server's refusals mapped onto fields) use. */
export type FieldErrorKey = "errors.bank" | "errors.terms";

export function methodOf(choice: Choice): PaymentMethod {
  return choice === "card" ? "card" : choice === "hybrid" ? "hybrid" : "bank";
}

/** The fields still missing before Pay can work, in the order the form shows them. */
export function missingFields(v: Pick<PaymentFormValues, "choice" | "bankId" | "terms">): PaymentField[] {
  if (v.choice !== "here") return [];
  return [...(v.bankId ? [] : (["bankId"] as const)), ...(v.terms ? [] : (["terms"] as const))];
}

/** The start request for valid values (`POST /api/checkouts/{id}/payments`). */
export function startRequestOf(v: PaymentFormValues, attemptKey: string, lang: Locale): StartPaymentRequest {
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
