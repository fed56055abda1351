import { z } from "zod";
import { CHECKOUT_STATUSES } from "./types";

/*
 * A day to filter by. Checkouts are stamped when they are created, so none is older than 2000 or
 * from after 2999; beyond both lie the days Postgres refuses as a timestamp (year 0, and 9999-12-31
 * whose next day, the end of the range, has five digits), which answered staff with a 500.
 */
export const FIRST_DAY = "2000-01-01";
export const LAST_DAY = "2999-12-31";
export const filterDay = z.iso
  .date()
  .refine((d) => d >= FIRST_DAY && d <= LAST_DAY, `must be a date from ${FIRST_DAY} to ${LAST_DAY}`);

/**
 * Filters of the back-office list, as they come from its query string. No database here: the list
 * in the browser parses its address with the same rules as the server.
 */
export const checkoutFilter = z.object({
  status: z.enum(CHECKOUT_STATUSES).optional(),
  from: filterDay.optional(),
  to: filterDay.optional(),
  bank: z
    .string()
    .regex(/^[A-Za-z0-9_]{1,64}$/)
    .optional(),
  // Postgres text cannot hold U+0000: the search would fail instead of finding nothing.
  q: z
    .string()
    .trim()
    .max(64)
    .refine((s) => !s.includes("\0"), "must not contain the NUL character (U+0000)")
    .optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});
export type CheckoutFilter = z.infer<typeof checkoutFilter>;
