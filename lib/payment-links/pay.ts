import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { paymentLinks } from "../db/schema";
import { rowsOf } from "../db/raw";
import { nowOf, type CheckoutContext } from "../checkout/context";
import { insertCheckout } from "../checkout/create-checkout";
import { CheckoutError } from "../checkout/errors";
import { amountProblem, DECIMAL_AMOUNT, minorUnits, normaliseAmount, toMinor } from "../checkout/money";
import type { Locale } from "../checkout/types";
import { enforceAll, hitAll, limits, type Hit } from "../http/rate-limit";
import { clientKey } from "../http/client-address";
import { linkStatus, linkUrl, PAYER_FIELD_MAX, type PaymentLinkView } from "./links";

/**
 * A payer pays a link: their submission becomes an ordinary checkout, and the payer continues on
 * its page. A link with a most-payments limit never gets more paid checkouts than the limit: a
 * checkout is made only while the paid ones and those that could still be paid stay within it,
 * counted under a lock on the link's row, so two payers at once cannot both take the last place.
 */

/** What the payer's form sends. */
export interface PayerInput {
  amount?: string;
  field?: string;
  locale?: Locale;
}

/** One thing wrong with the payer's form, with what the page needs to say it in their language. */
export type PayerProblem =
  | { path: "amount"; kind: "amountFormat" }
  | { path: "amount"; kind: "amountRange"; min: string; max: string }
  | { path: "field"; kind: "fieldRequired"; label: string }
  | { path: "field"; kind: "fieldTooLong"; label: string; max: number };

/** Checked before anything is written; the same check the checkout's creation makes. */
export function payerProblems(link: PaymentLinkView, input: PayerInput): PayerProblem[] {
  const problems: PayerProblem[] = [];
  if (link.payerAmount) {
    const { min, max } = link.payerAmount;
    const amount = (input.amount ?? "").trim().replace(",", ".");
    const decimals = amount.split(".")[1]?.length ?? 0;
    if (!DECIMAL_AMOUNT.test(amount) || decimals > minorUnits(link.currency))
      problems.push({ path: "amount", kind: "amountFormat" });
    else if (
      amountProblem(amount, link.currency) !== null ||
      toMinor(amount, link.currency) < toMinor(min, link.currency) ||
      toMinor(amount, link.currency) > toMinor(max, link.currency)
    )
      problems.push({ path: "amount", kind: "amountRange", min, max });
  }
  if (link.payerField) {
    const value = (input.field ?? "").trim();
    if (value.length === 0 && link.payerField.required)
      problems.push({ path: "field", kind: "fieldRequired", label: link.payerField.label });
    if (value.length > PAYER_FIELD_MAX)
      problems.push({ path: "field", kind: "fieldTooLong", label: link.payerField.label, max: PAYER_FIELD_MAX });
  }
  return problems;
}

/** A problem as the API's field error says it (the page says it in the payer's language). */
function problemText(p: PayerProblem): string {
  switch (p.kind) {
    case "amountFormat":
      return 'must be a decimal amount like "12.50"';
    case "amountRange":
      return `must be from ${p.min} to ${p.max}`;
    case "fieldRequired":
      return "is required";
    case "fieldTooLong":
      return `must be at most ${p.max} characters`;
  }
}

/** A limited link's checkout ends sooner, so one a payer walked away from holds the last place briefly. */
const LIMITED_CHECKOUT_TTL_MS = 15 * 60_000;
/**
 * A checkout that could still be paid keeps its place: one not yet ended (a failed one may be
 * tried again), or one with a payment at the bank. One just past its end may still have a payment
 * start under way, so it keeps its place this much longer.
 */
const START_GRACE_MS = 2 * 60_000;

/** The hits a checkout from a link counts: per client address. */
export const linkCheckoutHits = (headers: Headers): Hit[] => [
  { key: `link:ip:${clientKey(headers)}`, rule: limits().linkCheckoutsPerIp },
];

/**
 * Makes the checkout for one payer of a link and returns its id. Refuses with
 * payment_link_not_found, payment_link_ended (ended, used up or deactivated: the detail says which),
 * payment_link_busy (the open checkouts could use up the limit), invalid_request (the payer's
 * form, errors naming `amount` or `field` and the limit), or rate_limited.
 */
export async function checkoutFromLink(
  c: CheckoutContext,
  link: PaymentLinkView,
  input: PayerInput,
  hits: Hit[] = [],
): Promise<string> {
  const problems = payerProblems(link, input);
  if (problems.length > 0)
    throw new CheckoutError("invalid_request", {
      detail: "The payment is not valid.",
      errors: problems.map((p) => ({ path: p.path, message: problemText(p) })),
    });
  if (link.status !== "active") throw endedError(link.status);
  if (hits.length > 0) enforceAll(await hitAll(c.db, hits));

  const amount = link.amount ?? normaliseAmount((input.amount ?? "").trim().replace(",", "."), link.currency);
  const field = (input.field ?? "").trim();
  const now = nowOf(c);
  return c.db.transaction(async (tx) => {
    // The row lock makes payers of one link take turns here; other links are not held up.
    const [row] = await tx.select().from(paymentLinks).where(eq(paymentLinks.id, link.id)).for("update");
    if (!row) throw new CheckoutError("payment_link_not_found");
    let paid = 0;
    if (row.maxPayments !== null) {
      const [counts] = rowsOf<{ paid: number; live: number }>(
        await tx.execute(sql`
          select count(*) filter (where c.status = 'paid')::int as paid,
                 count(*) filter (where c.status <> 'paid' and (
                   (c.status in ('open', 'processing', 'failed') and c.expires_at > ${new Date(now.getTime() - START_GRACE_MS)})
                   or exists (select 1 from payment_attempts a where a.checkout_id = c.id
                              and (a.status_group is null or a.status_group in ('started', 'pending')))
                 ))::int as live
          from checkouts c where c.payment_link_id = ${row.id}`),
      );
      paid = counts?.paid ?? 0;
      const status = linkStatus(row, paid, now);
      if (status !== "active") throw endedError(status);
      if (paid + (counts?.live ?? 0) >= row.maxPayments) throw new CheckoutError("payment_link_busy");
    } else {
      const status = linkStatus(row, 0, now);
      if (status !== "active") throw endedError(status);
    }
    const created = await insertCheckout(
      c,
      tx,
      {
        amount,
        currency: row.currency,
        description: row.title,
        reference: `${row.referencePrefix}-${randomBytes(8).toString("base64url").replace(/[-_]/g, "0").slice(0, 10).toUpperCase()}`,
        returnUrl: row.returnUrl ?? linkUrl(c.config.appUrl, row.slug),
        notifyUrl: row.notifyUrl ?? undefined,
        locale: input.locale,
        metadata: row.payerFieldLabel && field ? { [row.payerFieldLabel]: field } : undefined,
        expiresInMinutes:
          row.maxPayments !== null
            ? Math.min(LIMITED_CHECKOUT_TTL_MS, c.config.checkoutTtlMs) / 60_000
            : c.config.checkoutTtlMs / 60_000,
      },
      row.id,
    );
    return created.id;
  });
}

function endedError(status: string) {
  const words: Record<string, string> = {
    ended: "The link's end date has passed.",
    used_up: "The link has taken all the payments it takes.",
    deactivated: "The link was deactivated.",
  };
  return new CheckoutError("payment_link_ended", { detail: words[status] ?? status });
}
