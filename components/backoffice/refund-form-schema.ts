import { z } from "zod";

/**
 * What staff type into the refund form, checked the same way in the browser (react-hook-form's
 * resolver, so a malformed amount is named before anything is sent) and in the server action,
 * which stays the authority and adds what only it knows (what is left to refund, the currency's
 * decimals).
 */
export const refundFields = z.object({
  // Staff may type a decimal comma ("5,00"); the domain takes a decimal string with a point.
  amount: z
    .string()
    .trim()
    .transform((v) => v.replace(",", "."))
    .pipe(z.string().regex(/^\d+(\.\d+)?$/, "Enter the amount as a number, like 12.50")),
  reason: z
    .string()
    .trim()
    .max(200, "Keep the reason under 200 characters")
    .transform((v) => (v === "" ? undefined : v)),
});

export type RefundFieldsInput = z.input<typeof refundFields>;
