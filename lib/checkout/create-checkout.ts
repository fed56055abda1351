import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import { createHash } from "node:crypto";
import { checkouts, idempotencyKeys } from "../db/schema";
import type { Db } from "../db/client";
import { prepared } from "../db/prepared";
import { nowOf, type CheckoutContext, type Tx } from "./context";
import { tell } from "./observer";
import { CheckoutError } from "./errors";
import { newCheckoutId } from "./ids";
import { isPrivateHost } from "./private-address";
import { amountProblem, fromMinor, normaliseAmount, SUPPORTED_CURRENCIES, toMinor } from "./money";
import { LOCALES, METADATA_LIMITS } from "./types";
import { amountInput, type CheckoutView } from "./contract";
import { toCheckoutView, loadCheckout } from "./checkouts";
import { requestHashOf, validateIdempotencyKey, type IdempotencyOptions } from "./idempotency";

const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

// https everywhere except on the merchant's own machine, where a developer runs plain http.
export const merchantUrl = z
  .url({ protocol: /^https?$/, error: "must be an absolute http(s) URL" })
  // Its own message: z.url()'s `error` would otherwise answer for this check too.
  .max(2000, "must be at most 2000 characters")
  .refine((u) => {
    // Not a URL at all is already reported by z.url(); this check is only about the scheme.
    if (!URL.canParse(u)) return true;
    const url = new URL(u);
    return url.protocol !== "http:" || LOCAL_HOSTS.has(url.hostname);
  }, "must use https");

/**
 * What a merchant sends to create a checkout. The amount is a decimal string in the currency's
 * minor units. A field it does not know is refused, not ignored: a misspelt `notifyUrl` would
 * otherwise lose the merchant its notifications without a word.
 */
export const createCheckoutInput = z
  .strictObject({
    amount: amountInput,
    currency: z.enum(SUPPORTED_CURRENCIES as [string, ...string[]]).meta({
      description:
        "Bank payments are in EUR (and PLN where the provider offers it), and only EUR and PLN can be refunded; the other currencies are for card projects, and the provider may refuse them",
    }),
    description: z.string().trim().min(1).max(140),
    reference: z.string().trim().min(1).max(64).meta({
      description:
        "Your order number. Its first 33 characters go to the bank as the payment's end-to-end id (the provider's limit), which the payment keeps through to the statements: keep what tells orders apart within them",
    }),
    returnUrl: merchantUrl,
    notifyUrl: merchantUrl.optional(),
    locale: z.enum(LOCALES).optional(),
    country: z
      .string()
      .regex(/^[A-Z]{2}$/, "must be an ISO 3166 alpha-2 code")
      .optional()
      .meta({
        description:
          "The country whose banks the page shows first, if the provider has banks there (it answers its countries at GET /auth/countries: LT, LV and EE in the sandbox); otherwise the payer's language decides, and the payer may switch",
      }),
    email: z.email().optional(),
    // The merchant's id for its signed-in customer; offers saving a bank account (ADR 11).
    customerId: z
      .string()
      .trim()
      .min(1)
      .max(128)
      .regex(/^[\x21-\x7e]+$/, "must be printable ASCII without spaces")
      .optional(),
    // Never beyond the provider's 7-day confirmLink, less an hour for a payer mid-payment.
    expiresInMinutes: z
      .number()
      .int()
      .min(1)
      .max(7 * 24 * 60 - 60)
      .optional(),
    metadata: z
      .record(
        z.string(),
        z.string().max(METADATA_LIMITS.valueLength, `must be at most ${METADATA_LIMITS.valueLength} characters`),
      )
      // The keys checked here rather than by the record's key schema, whose refusal names no limit.
      .superRefine((m, issue) => {
        const keys = Object.keys(m);
        if (keys.length > METADATA_LIMITS.keys)
          issue.addIssue({ code: "custom", path: [], message: `at most ${METADATA_LIMITS.keys} keys` });
        for (const key of keys)
          if (key.length < 1 || key.length > METADATA_LIMITS.keyLength)
            issue.addIssue({
              code: "custom",
              path: [key],
              message: `keys must be 1 to ${METADATA_LIMITS.keyLength} characters`,
            });
      })
      .optional()
      .meta({
        description: `Your own keys and values (at most ${METADATA_LIMITS.keys} keys of up to ${METADATA_LIMITS.keyLength} characters, values up to ${METADATA_LIMITS.valueLength}): returned with the checkout and in its notifications, shown to staff, never to the payer`,
      }),
    lineItems: z
      .array(
        z.strictObject({
          name: z.string().trim().min(1).max(200),
          quantity: z.int().min(1).max(100_000),
          unitAmount: amountInput,
        }),
      )
      .min(1)
      .max(100)
      .optional()
      .meta({
        description:
          "What the order is made of, shown to the payer in the order summary and to staff. quantity × unitAmount over the lines must add up to amount exactly",
      }),
  })
  .superRefine((v, issue) => {
    const problem = amountProblem(v.amount, v.currency);
    if (problem) issue.addIssue({ code: "custom", path: ["amount"], message: problem });
    if (!v.lineItems?.length || problem) return;
    let total = 0n;
    let unitsValid = true;
    v.lineItems.forEach((line, i) => {
      const unitProblem = amountProblem(line.unitAmount, v.currency);
      if (unitProblem) issue.addIssue({ code: "custom", path: ["lineItems", i, "unitAmount"], message: unitProblem });
      // A line already refused (a quantity below 1) is not summed: one problem, one message.
      unitsValid &&= !unitProblem && Number.isInteger(line.quantity) && line.quantity >= 1;
      if (!unitProblem) total += toMinor(line.unitAmount, v.currency) * BigInt(line.quantity);
    });
    if (unitsValid && total !== toMinor(v.amount, v.currency))
      issue.addIssue({
        code: "custom",
        path: ["lineItems"],
        message: `must add up to the amount, ${normaliseAmount(v.amount, v.currency)}: they add up to ${fromMinor(total, v.currency)}`,
      });
  });

export type CreateCheckoutInput = z.input<typeof createCheckoutInput>;

/**
 * Creates a checkout. With an idempotency key, a repeated request (a merchant retrying after a
 * timeout) returns the checkout the first one made; the same key with another body is refused.
 */
export async function createCheckout(
  input: CreateCheckoutInput,
  c: CheckoutContext,
  opts: IdempotencyOptions = {},
): Promise<CheckoutView> {
  const v = parseCreateInput(input, c.config.allowPrivateUrls);
  if (opts.idempotencyKey !== undefined) return createIdempotently(c, v, opts);
  return insertCheckout(c, c.db, v);
}

/**
 * Our server calls notifyUrl, and sends the payer's browser to returnUrl: neither may reach this
 * machine or the network behind it unless the operator says the merchant lives there.
 */
export function privateUrlErrors(
  urls: { returnUrl?: string | null; notifyUrl?: string | null },
  allowPrivateUrls: boolean,
): { path: string; message: string }[] {
  if (allowPrivateUrls) return [];
  return (["returnUrl", "notifyUrl"] as const)
    .filter((field) => {
      const url = urls[field];
      return url && isPrivateHost(new URL(url).hostname);
    })
    .map((path) => ({ path, message: "must not point at localhost or a private network (ALLOW_PRIVATE_URLS)" }));
}

function parseCreateInput(input: CreateCheckoutInput, allowPrivateUrls: boolean) {
  const parsed = createCheckoutInput.safeParse(input);
  const errors = parsed.success ? [] : parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
  if (parsed.success) errors.push(...privateUrlErrors(parsed.data, allowPrivateUrls));
  if (!parsed.success || errors.length > 0)
    throw new CheckoutError("invalid_request", { detail: "The checkout is not valid.", errors: errors });
  // Amounts as stored ("12.5" is "12.50"): what is inserted, and what an idempotency key covers.
  const v = parsed.data;
  return {
    ...v,
    amount: normaliseAmount(v.amount, v.currency),
    lineItems: v.lineItems?.map((l) => ({ ...l, unitAmount: normaliseAmount(l.unitAmount, v.currency) })),
  };
}

const COLUMNS = [
  "id",
  "amount",
  "currency",
  "description",
  "reference",
  "returnUrl",
  "notifyUrl",
  "locale",
  "country",
  "email",
  "customerId",
  "metadata",
  "lineItems",
  "paymentLinkId",
  "creditorName",
  "creditorIban",
  "createdAt",
  "updatedAt",
  "expiresAt",
] as const;
type NewCheckout = Pick<typeof checkouts.$inferInsert, (typeof COLUMNS)[number]>;

const insertPrepared = prepared((db) =>
  db
    .insert(checkouts)
    .values(Object.fromEntries(COLUMNS.map((c) => [c, sql.placeholder(c)])) as unknown as NewCheckout)
    .returning()
    .prepare("insert_checkout"),
);

/**
 * Writes a checkout already parsed (createCheckoutInput). Exported for a payment link, whose
 * checkout is made in the transaction that counts the link's payments.
 */
export async function insertCheckout(
  c: CheckoutContext,
  db: Db | Tx,
  v: z.infer<typeof createCheckoutInput>,
  paymentLinkId: string | null = null,
): Promise<CheckoutView> {
  const now = nowOf(c);
  const values: NewCheckout = {
    id: newCheckoutId(),
    amount: v.amount,
    currency: v.currency,
    description: v.description,
    reference: v.reference,
    returnUrl: v.returnUrl,
    notifyUrl: v.notifyUrl ?? null,
    locale: v.locale ?? null,
    country: v.country ?? null,
    email: v.email ?? null,
    customerId: v.customerId ?? null,
    metadata: v.metadata ?? {},
    lineItems: v.lineItems ?? [],
    paymentLinkId,
    creditorName: c.config.creditorName,
    creditorIban: c.config.creditorIban,
    createdAt: now,
    updatedAt: now,
    expiresAt: new Date(
      now.getTime() + (v.expiresInMinutes !== undefined ? v.expiresInMinutes * 60_000 : c.config.checkoutTtlMs),
    ),
  };
  // In a transaction (with an idempotency key) the statement is built there; alone it is built once.
  const [row] =
    db === c.db ? await insertPrepared(c.db).execute(values) : await db.insert(checkouts).values(values).returning();
  if (!row) throw new Error("insert returned no row");
  tell((o) => o.created(paymentLinkId ? "payment_link" : "api"));
  return toCheckoutView(row);
}

/**
 * A repeated request with the same key (a merchant retrying after a timeout) gets the checkout
 * the first one made; the same key with another body is refused. Checkout and key are written in
 * one transaction, so a race between two such requests leaves exactly one checkout.
 */
async function createIdempotently(
  c: CheckoutContext,
  v: z.infer<typeof createCheckoutInput>,
  { idempotencyKey: key = "", onReplay }: IdempotencyOptions,
): Promise<CheckoutView> {
  validateIdempotencyKey(key);
  // Over the amounts as stored: "12.5" and "12.50" are the same request.
  const requestHash = requestHashOf(v);
  // Keys stored before the hash was canonical (2026-12-07) hold the hash of the request as sent: a
  // merchant retrying across that deploy still gets its checkout.
  const legacyHash = createHash("sha256").update(JSON.stringify(v)).digest("hex");
  const earlier = async () => {
    const [row] = await c.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key));
    if (!row) return undefined;
    if (row.requestHash !== requestHash && row.requestHash !== legacyHash) {
      throw new CheckoutError("idempotency_key_reused");
    }
    const checkout = await loadCheckout(c, row.checkoutId);
    if (!checkout) throw new Error(`idempotency key ${key} points at a missing checkout`);
    onReplay?.();
    return toCheckoutView(checkout);
  };
  const found = await earlier();
  if (found) return found;
  try {
    return await c.db.transaction(async (tx) => {
      const created = await insertCheckout(c, tx, v);
      await tx.insert(idempotencyKeys).values({ key, requestHash, checkoutId: created.id });
      return created;
    });
  } catch (err) {
    const winner = await earlier();
    if (winner) return winner;
    throw err;
  }
}
