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

/** Which page of a list (GET /api/checkouts, GET /api/payment-links), from 1. */
export const pageNumber = z.coerce.number().int().min(1).max(10_000).default(1);

/**
 * Filters of the checkout list (the merchant's GET /api/checkouts and the back office's), as they
 * come from its query string. No database here: the list in the browser parses its address with the
 * same rules as the server. A field it does not know is refused, not ignored: `?reference=x` would
 * otherwise answer every checkout as if it matched.
 */
export const checkoutFilter = z
  .strictObject({
    status: z.enum(CHECKOUT_STATUSES).optional(),
    from: filterDay.optional().meta({ description: "Checkouts created on this day or later (UTC)" }),
    to: filterDay.optional().meta({ description: "Checkouts created on this day or earlier (UTC)" }),
    // What reconciling after missed notifications needs: a checkout paid the day after it was made is
    // that day's change, which its creation day does not find.
    updatedFrom: filterDay.optional().meta({
      description:
        "Checkouts last changed on this day or later (UTC): a status, a payment, or a refund's outcome. What changed on a day is updatedFrom and updatedTo that day",
    }),
    updatedTo: filterDay
      .optional()
      .meta({ description: "Checkouts last changed on this day or earlier (UTC); see updatedFrom" }),
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
    page: pageNumber,
    // A cursor, as Stripe's lists have: pages by number move when a checkout is made or leaves the
    // filter between two reads (a row on two pages, or on none), which a reconciliation cannot have.
    startingAfter: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/)
      .optional()
      .meta({
        description:
          "The id of the last checkout of the previous answer: the checkouts after it in this order, however many were made or changed meanwhile (no checkout is listed twice or left out). Not with page",
      }),
  })
  .refine((f) => f.startingAfter === undefined || f.page === 1, {
    path: ["page"],
    message: "cannot be given with startingAfter",
  });
export type CheckoutFilter = z.infer<typeof checkoutFilter>;
