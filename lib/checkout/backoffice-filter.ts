import { z } from "zod";
import { CHECKOUT_STATUSES } from "./types";

/**
 * Filters of the back-office list, as they come from its query string. No database here: the list
 * in the browser parses its address with the same rules as the server.
 */
export const checkoutFilter = z.object({
  status: z.enum(CHECKOUT_STATUSES).optional(),
  from: z.iso.date().optional(),
  to: z.iso.date().optional(),
  bank: z
    .string()
    .regex(/^[A-Za-z0-9_]{1,64}$/)
    .optional(),
  q: z.string().trim().max(64).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});
export type CheckoutFilter = z.infer<typeof checkoutFilter>;
