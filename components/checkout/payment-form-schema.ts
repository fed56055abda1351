import { zodResolver } from "@hookform/resolvers/zod";
import type { Resolver } from "react-hook-form";
import * as z from "zod/mini";
import { CHOICES, type PaymentFormValues } from "./payment-form";

/**
 * The payment form's rules, for react-hook-form's zod resolver. zod/mini keeps the payer's
 * JavaScript small, and this module (with the resolver) is loaded after the page is up
 * (use-payment-form.ts): nothing validates before the payer has touched the form. The server
 * parses the request it leads to with its own schema and stays the authority. Messages are keys
 * of the message catalogue, so the view shows each field's error in the page's language.
 */
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

export const paymentFormResolver: Resolver<PaymentFormValues> = zodResolver(paymentFormSchema);
