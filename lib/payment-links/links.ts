import { createHash, randomBytes } from "node:crypto";
import { and, desc, eq, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../db";
import { checkouts, paymentLinks } from "../db/schema";
import { rowsOf } from "../db/raw";
import { amountInput, amount as amountView } from "../checkout/contract";
import { merchantUrl, privateUrlErrors } from "../checkout/create-checkout";
import { nowOf, type CheckoutContext } from "../checkout/context";
import { CheckoutError } from "../checkout/errors";
import { validateIdempotencyKey, type IdempotencyOptions } from "../checkout/idempotency";
import { amountProblem, fromMinor, normaliseAmount, SUPPORTED_CURRENCIES, toMinor } from "../checkout/money";
import { METADATA_LIMITS } from "../checkout/types";
import { pageNumber } from "../checkout/backoffice-filter";

/**
 * Payment links (ADR 32): a page at /pay/{slug} that anyone with the address may pay, made by staff
 * in the back office or by the merchant's API, with no backend call per payment. Each payment is an
 * ordinary checkout made when the payer submits (lib/payment-links/pay.ts), so the money path and
 * its guarantees are the checkout's own.
 */

export type PaymentLinkRow = typeof paymentLinks.$inferSelect;

export const LINK_STATUSES = ["active", "ended", "used_up", "deactivated"] as const;
export type LinkStatus = (typeof LINK_STATUSES)[number];

/** What one payer fills in is kept in the checkout's metadata, under the field's label. */
export const PAYER_FIELD_MAX = 140;

export const createPaymentLinkInput = z
  .strictObject({
    title: z
      .string()
      .trim()
      .min(1)
      .max(140)
      .meta({ description: "What is paid for: the page's heading and each checkout's description" }),
    description: z.string().trim().max(1000).optional(),
    currency: z.enum(SUPPORTED_CURRENCIES as [string, ...string[]]),
    amount: amountInput
      .optional()
      .meta({ description: "A fixed amount. Leave it out to let the payer choose one (payerAmount)" }),
    payerAmount: z
      .strictObject({ min: amountInput, max: amountInput, suggested: amountInput.optional() })
      .optional()
      .meta({ description: "The payer chooses an amount between min and max (suggested is filled in)" }),
    referencePrefix: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,20}$/, "must be 1 to 20 letters, digits, - or _")
      .meta({ description: "Each checkout's reference is this prefix, a dash and 10 random characters" }),
    payerField: z
      .strictObject({
        label: z.string().trim().min(1).max(METADATA_LIMITS.keyLength),
        required: z.boolean().default(true),
      })
      .optional()
      .meta({
        description: `One field the payer fills in (an invoice number, say), at most ${PAYER_FIELD_MAX} characters; its value is in the checkout's metadata under the label`,
      }),
    endsAt: z.iso.datetime({ offset: true }).optional().meta({ description: "After this the link takes no payments" }),
    maxPayments: z
      .int()
      .min(1)
      .max(1_000_000)
      .optional()
      .meta({ description: "The link takes at most this many paid checkouts, ever, even with payers at once" }),
    returnUrl: merchantUrl
      .optional()
      .meta({ description: "Where the landing page's button takes the payer; the link itself when left out" }),
    notifyUrl: merchantUrl
      .optional()
      .meta({ description: "Where each checkout's notifications go (README Notifications)" }),
  })
  .superRefine((v, issue) => {
    const problem = (path: (string | number)[], message: string) => issue.addIssue({ code: "custom", path, message });
    if ((v.amount === undefined) === (v.payerAmount === undefined))
      return problem(["amount"], "give either amount (fixed) or payerAmount (the payer chooses)");
    if (v.amount !== undefined) {
      const p = amountProblem(v.amount, v.currency);
      if (p) problem(["amount"], p);
      return;
    }
    const range = v.payerAmount!;
    const bad = (["min", "max", "suggested"] as const).filter((k) => {
      const value = range[k];
      const p = value === undefined ? null : amountProblem(value, v.currency);
      if (p) problem(["payerAmount", k], p);
      return p !== null;
    });
    if (bad.length > 0) return;
    const min = toMinor(range.min, v.currency);
    const max = toMinor(range.max, v.currency);
    if (max < min) problem(["payerAmount", "max"], "must not be below min");
    if (range.suggested !== undefined) {
      const s = toMinor(range.suggested, v.currency);
      if (s < min || s > max) problem(["payerAmount", "suggested"], "must be between min and max");
    }
  });
export type CreatePaymentLinkInput = z.input<typeof createPaymentLinkInput>;

export const paymentLinkView = z.object({
  id: z.string(),
  url: z.string().meta({ description: "The page to send payers to (also as a QR code at url + /qr)" }),
  slug: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  currency: z.string(),
  amount: amountView.nullable().meta({ description: "The fixed amount; null when the payer chooses" }),
  payerAmount: z.object({ min: amountView, max: amountView, suggested: amountView.nullable() }).nullable(),
  referencePrefix: z.string(),
  payerField: z.object({ label: z.string(), required: z.boolean() }).nullable(),
  endsAt: z.string().nullable(),
  maxPayments: z.int().nullable(),
  status: z.enum(LINK_STATUSES),
  payments: z.int().meta({ description: "Paid checkouts" }),
  totalPaid: amountView.meta({ description: "What the paid checkouts add up to" }),
  createdAt: z.string(),
  deactivatedAt: z.string().nullable(),
});
export type PaymentLinkView = z.infer<typeof paymentLinkView>;

const LINK_PAGE_SIZE = 200;

export const paymentLinkList = z.object({
  items: z.array(paymentLinkView),
  page: z.int(),
  hasMore: z.boolean().meta({ description: "Another page follows (page=page+1)" }),
});
export type PaymentLinkList = z.infer<typeof paymentLinkList>;

/** GET /api/payment-links's query: a page, as the checkout list's. */
export const paymentLinkListQuery = z.strictObject({ page: pageNumber });

/** Whether the link takes payments now. `paid` is its paid checkouts. */
export function linkStatus(link: PaymentLinkRow, paid: number, now: Date): LinkStatus {
  if (link.deactivatedAt) return "deactivated";
  if (link.endsAt && link.endsAt <= now) return "ended";
  if (link.maxPayments !== null && paid >= link.maxPayments) return "used_up";
  return "active";
}

export const linkUrl = (appUrl: string, slug: string) => `${appUrl}/pay/${slug}`;

function toView(link: PaymentLinkRow, paid: { count: number; total: string }, appUrl: string, now: Date) {
  return {
    id: link.id,
    url: linkUrl(appUrl, link.slug),
    slug: link.slug,
    title: link.title,
    description: link.description,
    currency: link.currency,
    amount: link.amount,
    payerAmount:
      link.minAmount !== null && link.maxAmount !== null
        ? { min: link.minAmount, max: link.maxAmount, suggested: link.suggestedAmount }
        : null,
    referencePrefix: link.referencePrefix,
    payerField: link.payerFieldLabel ? { label: link.payerFieldLabel, required: link.payerFieldRequired } : null,
    endsAt: link.endsAt?.toISOString() ?? null,
    maxPayments: link.maxPayments,
    status: linkStatus(link, paid.count, now),
    payments: paid.count,
    totalPaid: fromMinor(toMinor(paid.total, link.currency), link.currency),
    createdAt: link.createdAt.toISOString(),
    deactivatedAt: link.deactivatedAt?.toISOString() ?? null,
  } satisfies PaymentLinkView;
}

// Ids are not secrets (the slug is public anyway); short slugs read well on an invoice.
const newLinkId = () => `plink_${randomBytes(12).toString("base64url")}`;
const newSlug = () => randomBytes(8).toString("base64url").replace(/[-_]/g, "x");
export const isSlug = (slug: string) => /^[A-Za-z0-9]{6,20}$/.test(slug);

/**
 * Makes a link; the field errors name what is wrong (400 invalid_request). With an Idempotency-Key,
 * a retried request is answered with the link the first one made; the same key with another
 * request is refused idempotency_key_reused. Keys are the merchant's, as a checkout's are, not an
 * API key's: a retry after the key was rolled is the same request.
 */
export async function createPaymentLink(
  input: CreatePaymentLinkInput,
  c: CheckoutContext,
  createdBy: string,
  opts: IdempotencyOptions = {},
): Promise<PaymentLinkView> {
  const parsed = createPaymentLinkInput.safeParse(input);
  const errors = parsed.success ? [] : parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
  if (parsed.success) errors.push(...privateUrlErrors(parsed.data, c.config.allowPrivateUrls));
  if (!parsed.success || errors.length > 0)
    throw new CheckoutError("invalid_request", { detail: "The payment link is not valid.", errors });
  const v = parsed.data;
  const now = nowOf(c);
  if (v.endsAt && new Date(v.endsAt) <= now)
    throw new CheckoutError("invalid_request", {
      detail: "The payment link is not valid.",
      errors: [{ path: "endsAt", message: "must be in the future" }],
    });
  const norm = (a: string | undefined) => (a === undefined ? null : normaliseAmount(a, v.currency));
  const values = {
    title: v.title,
    description: v.description || null,
    currency: v.currency,
    amount: norm(v.amount),
    minAmount: norm(v.payerAmount?.min),
    maxAmount: norm(v.payerAmount?.max),
    suggestedAmount: norm(v.payerAmount?.suggested),
    referencePrefix: v.referencePrefix,
    payerFieldLabel: v.payerField?.label ?? null,
    payerFieldRequired: v.payerField?.required ?? false,
    returnUrl: v.returnUrl ?? null,
    notifyUrl: v.notifyUrl ?? null,
    endsAt: v.endsAt ? new Date(v.endsAt) : null,
    maxPayments: v.maxPayments ?? null,
  };
  const key = opts.idempotencyKey === undefined ? null : validateIdempotencyKey(opts.idempotencyKey);
  // Over the values as stored: "25" and "25.00" are the same request.
  const requestHash = key && createHash("sha256").update(JSON.stringify(values)).digest("hex");
  const earlier = async () => {
    if (!key) return undefined;
    const [row] = await c.db
      .select({ id: paymentLinks.id, requestHash: paymentLinks.requestHash })
      .from(paymentLinks)
      .where(eq(paymentLinks.idempotencyKey, key));
    if (!row) return undefined;
    if (row.requestHash !== requestHash) throw new CheckoutError("idempotency_key_reused");
    opts.onReplay?.();
    return requirePaymentLink(c, row.id);
  };
  const found = await earlier();
  if (found) return found;
  try {
    const [row] = await c.db
      .insert(paymentLinks)
      .values({
        ...values,
        id: newLinkId(),
        slug: newSlug(),
        createdBy,
        createdAt: now,
        idempotencyKey: key,
        requestHash,
      })
      .returning();
    return toView(row!, { count: 0, total: "0" }, c.config.appUrl, now);
  } catch (err) {
    // Two requests with one key at once: the unique key lets one in, the other answers its link.
    const winner = await earlier();
    if (winner) return winner;
    throw err;
  }
}

/** Paid checkouts of each link: how many, and their sum. */
const paidOf = (where: SQL, tail: SQL) => sql`
  select l.*, coalesce(p.n, 0)::int as paid_count, coalesce(p.total, 0)::text as paid_total
  from payment_links l
  left join (
    select payment_link_id, count(*) as n, sum(amount) as total from checkouts
    where status = 'paid' and payment_link_id is not null group by payment_link_id
  ) p on p.payment_link_id = l.id
  where ${where} ${tail}`;

type PaidRow = Record<string, unknown> & { paid_count: number; paid_total: string };

function rowOf(r: PaidRow): PaymentLinkRow {
  const date = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string));
  return {
    id: r.id as string,
    slug: r.slug as string,
    title: r.title as string,
    description: (r.description as string | null) ?? null,
    currency: r.currency as string,
    amount: (r.amount as string | null) ?? null,
    minAmount: (r.min_amount as string | null) ?? null,
    maxAmount: (r.max_amount as string | null) ?? null,
    suggestedAmount: (r.suggested_amount as string | null) ?? null,
    referencePrefix: r.reference_prefix as string,
    payerFieldLabel: (r.payer_field_label as string | null) ?? null,
    payerFieldRequired: Boolean(r.payer_field_required),
    returnUrl: (r.return_url as string | null) ?? null,
    notifyUrl: (r.notify_url as string | null) ?? null,
    endsAt: date(r.ends_at),
    maxPayments: (r.max_payments as number | null) ?? null,
    deactivatedAt: date(r.deactivated_at),
    createdBy: r.created_by as string,
    createdAt: date(r.created_at)!,
    idempotencyKey: (r.idempotency_key as string | null) ?? null,
    requestHash: (r.request_hash as string | null) ?? null,
  };
}

async function readLinks(c: CheckoutContext, where: SQL, tail = sql``): Promise<PaymentLinkView[]> {
  const rows = rowsOf<PaidRow>(await c.db.execute(paidOf(where, tail)));
  const now = nowOf(c);
  return rows.map((r) => toView(rowOf(r), { count: r.paid_count, total: r.paid_total }, c.config.appUrl, now));
}

/** A link by its id or its slug (the back office and the API use the id, the payer's page the slug). */
export async function getPaymentLink(c: CheckoutContext, idOrSlug: string): Promise<PaymentLinkView | null> {
  const [link] = await readLinks(c, sql`l.id = ${idOrSlug} or l.slug = ${idOrSlug}`);
  return link ?? null;
}

export async function requirePaymentLink(c: CheckoutContext, id: string): Promise<PaymentLinkView> {
  const link = await getPaymentLink(c, id);
  if (!link) throw new CheckoutError("payment_link_not_found");
  return link;
}

/** One page of links, newest first, and whether another page follows (GET /api/payment-links). */
export async function paymentLinkPage(c: CheckoutContext, page: number): Promise<PaymentLinkList> {
  const rows = await readLinks(
    c,
    sql`true`,
    sql`order by l.created_at desc, l.id limit ${LINK_PAGE_SIZE + 1} offset ${(page - 1) * LINK_PAGE_SIZE}`,
  );
  return { items: rows.slice(0, LINK_PAGE_SIZE), page, hasMore: rows.length > LINK_PAGE_SIZE };
}

/**
 * Stops a link, named by its id or its slug (as it is read), taking payments; checkouts already
 * made from it stay payable until they end.
 */
export async function deactivatePaymentLink(c: CheckoutContext, idOrSlug: string): Promise<PaymentLinkView> {
  const { id } = await requirePaymentLink(c, idOrSlug);
  await c.db
    .update(paymentLinks)
    .set({ deactivatedAt: nowOf(c) })
    .where(and(eq(paymentLinks.id, id), sql`${paymentLinks.deactivatedAt} is null`));
  return requirePaymentLink(c, id);
}

/** A link's checkouts, newest first, for its page in the back office. */
export async function linkCheckouts(db: Db, linkId: string, limit = 100) {
  return db
    .select({
      id: checkouts.id,
      reference: checkouts.reference,
      amount: checkouts.amount,
      currency: checkouts.currency,
      status: checkouts.status,
      metadata: checkouts.metadata,
      createdAt: checkouts.createdAt,
    })
    .from(checkouts)
    .where(eq(checkouts.paymentLinkId, linkId))
    .orderBy(desc(checkouts.createdAt), desc(checkouts.id))
    .limit(limit);
}
