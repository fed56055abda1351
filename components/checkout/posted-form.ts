import { z } from "zod";
import { CheckoutError } from "@/lib/checkout/errors";
import type { ErrorCode } from "@/lib/errors";
import { RateLimitedError } from "@/lib/http/rate-limit";
import { bankIdInput } from "@/lib/checkout/ids";
import type { LinkOutcome } from "@/lib/checkout/saved-accounts/link-return";
import { LOCALES } from "@/lib/checkout/types";
import { CHOICES, type Choice } from "./payment-form";

/** What every form the browser posts by itself carries: the page's language, to come back in. */
export const postedLang = z.object({ lang: z.enum(LOCALES).default("en") });

/**
 * The payment forms as the browser posts them by itself, before the page's code has run or with
 * none (ADR 21), named as the forms name their fields; and what a refused post hands back to the
 * form through the checkout's query, so the payer does not choose again.
 */
export const postedForm = postedLang.extend({
  /** The payment form's choices, or "saved": the saved account's one-click Pay. */
  choice: z.enum([...CHOICES, "saved"]).default("here"),
  country: z.string().max(2).default(""),
  bankId: z.string().max(64).default(""),
  terms: z.literal("on").optional(),
  remember: z.literal("on").optional(),
  attemptKey: z.string().max(64),
});
export type PostedForm = z.infer<typeof postedForm>;

/**
 * The checkout again, saying what stopped the post, with the payer's choices (the Terms are not
 * kept: they are agreed to each time; "Remember" is not kept when saving was what was refused).
 */
export function refusedLocation(checkoutId: string, form: PostedForm, refused: string): string {
  const query: Record<string, string> = { lang: form.lang, refused };
  if (form.choice !== "saved") {
    query.choice = form.choice;
    if (form.country) query.country = form.country;
    if (form.bankId) query.bank = form.bankId;
    if (form.remember && refused !== "saving_unavailable") query.remember = "on";
  }
  return checkoutPage(checkoutId, query);
}

/** The checkout's page, with a query for it (the language to speak, what to say). */
export function checkoutPage(checkoutId: string, query: Record<string, string>): string {
  return `/checkout/${encodeURIComponent(checkoutId)}?${new URLSearchParams(query)}`;
}

/** A form-encoded body the browser posted, read with `schema` (refused as parsePosted refuses). */
export function readPosted<S extends z.ZodType>(schema: S, rawBody: string): z.output<S> {
  return parsePosted(schema, Object.fromEntries(new URLSearchParams(rawBody)));
}

/** Parsed, or refused as the API refuses a bad body: 400 naming the fields (only a form our page did not make). */
export function parsePosted<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  throw new CheckoutError("invalid_request", {
    detail: "The form is not valid.",
    errors: parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message })),
  });
}

/**
 * What a refusal met by a posted form is called in the page's `?refused=` (the page shows its
 * message): a known refusal's code, or null for what the route answers as the API does (an
 * unknown checkout is 404; anything else is a fault).
 */
export function refusalOf(err: unknown): ErrorCode | null {
  if (err instanceof RateLimitedError) return "rate_limited";
  if (err instanceof CheckoutError && err.code !== "checkout_not_found") return err.code;
  return null;
}

/** The choices a refused post came back with. Only their shape is checked here; the page keeps those it still offers. */
export interface KeptChoices {
  choice?: Choice;
  country?: string;
  bankId?: string;
  /** The bank search, sent by the form without scripts (`q`: its search box). */
  search?: string;
  remember: boolean;
  /** The whole bank list, not its first 48: the form's "Show all" without scripts (`banks=all`). */
  showAllBanks: boolean;
}

/**
 * The choices in the checkout's query, when our own pages sent the payer there (`Sec-Fetch-Site`,
 * which the browser sets and a page cannot): the way back from a refused post, or the form's "Show
 * banks" and bank search without scripts. A link from anywhere else must not choose for the payer,
 * least of all tick "Remember", the payer's consent to keep the account. A browser that does not
 * send the header gets the form as it comes. Showing every bank chooses nothing, so it is taken
 * from anywhere.
 */
export function keptChoices(query: Record<string, unknown>, fetchSite: string | null): KeptChoices {
  const showAllBanks = query.banks === "all";
  if (fetchSite !== "same-origin") return { remember: false, showAllBanks };
  return {
    choice: CHOICES.find((c) => c === query.choice),
    country: typeof query.country === "string" && /^[A-Z]{2}$/.test(query.country) ? query.country : undefined,
    bankId: bankIdInput.safeParse(query.bank).data,
    search: typeof query.q === "string" && query.q.trim() ? query.q.trim().slice(0, 64) : undefined,
    remember: query.remember === "on",
    showAllBanks,
  };
}

/** `?saved=`: how the payer's return from saving a bank account went, or that it was forgotten. */
export type SavedNotice = LinkOutcome | "forgotten";

/** What the checkout's query asks the page to say above the form, where it may. */
export interface QueryNotices {
  /** `?refused=`: what stopped a post to the pay or abandon route (a missing field or an error code). */
  refused?: string;
  /** `?stopped=1`: "Choose another bank" stopped the unfinished payment. */
  stopped: boolean;
  saved?: SavedNotice;
}

/**
 * The notices the checkout's query asks for, only where they are true. A refusal, a stopped
 * payment and a forgotten account come back from our own routes, so, like the choices
 * (keptChoices), they are read only when our own pages sent the payer: a link from anywhere else
 * must not make the page say the order is paid or has expired. How saving an account went comes
 * back through the provider's redirect, from its own site, so it is said only when the checkout's
 * record of that saving (`saving`) agrees.
 */
export function queryNotices(
  query: Record<string, unknown>,
  fetchSite: string | null,
  saving: LinkOutcome | null,
): QueryNotices {
  const ours = fetchSite === "same-origin";
  let saved: SavedNotice | undefined;
  if (query.saved === "forgotten") saved = ours ? "forgotten" : undefined;
  else if (saving !== null && query.saved === saving) saved = saving;
  return {
    ...(ours && typeof query.refused === "string" && { refused: query.refused }),
    stopped: ours && query.stopped === "1",
    ...(saved && { saved }),
  };
}
