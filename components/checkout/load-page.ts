import "server-only";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { appContext } from "@/lib/checkout/app-context";
import { orDatabaseAway } from "@/lib/db/unavailable";
import { getCheckoutPageData, savingOutcome } from "@/lib/checkout/page-data";
import { isLocale, LANG_COOKIE, requestedLocale } from "@/lib/i18n";
import { PAYER_HANDLE_COOKIE } from "@/lib/checkout/saved-accounts/payer-handle";
import { keptChoices, queryNotices } from "./posted-form";

export type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export interface CheckoutRouteProps {
  params: Promise<{ checkoutId: string }>;
  searchParams: SearchParams;
}

/**
 * One computation per request, shared by a checkout page and its metadata. A database that does
 * not answer (a restart, a failover) shows the error page that says so and tries again itself.
 */
const load = cache(async (checkoutId: string, lang: string | undefined, payerHandle: string | undefined) =>
  orDatabaseAway(async () =>
    getCheckoutPageData(checkoutId, { headers: await headers(), lang, payerHandle }, await appContext()),
  ),
);

/** How saving a bank account ended, asked once per request (a page and its metadata both load). */
const saving = cache(async (checkoutId: string, payerHandle: string | undefined) =>
  orDatabaseAway(async () => savingOutcome(await appContext(), checkoutId, payerHandle)),
);

/**
 * The checkout page data for this request, in the language the payer asked for (?lang=, then the
 * cookie); with the payer's saved bank account when the page offers paying with one; and the
 * choices and notices the query brings back, where they may be believed (posted-form.ts).
 */
export async function loadCheckoutPage(
  { params, searchParams }: CheckoutRouteProps,
  opts: { savedAccount?: boolean } = {},
) {
  const [{ checkoutId }, query, jar, sent] = await Promise.all([params, searchParams, cookies(), headers()]);
  const payerHandle = opts.savedAccount ? jar.get(PAYER_HANDLE_COOKIE)?.value : undefined;
  const data = await load(checkoutId, requestedLocale(query.lang, jar.get(LANG_COOKIE)?.value), payerHandle);
  const fetchSite = sent.get("sec-fetch-site");
  // Only a page that says how saving went asks the database how it did.
  const saved =
    data && typeof query.saved === "string" && query.saved !== "forgotten"
      ? await saving(data.checkout.id, payerHandle)
      : null;
  return { data, query, kept: keptChoices(query, fetchSite), notices: queryNotices(query, fetchSite, saved) };
}

/**
 * An unknown or mistyped checkout link goes on to a path that no route matches, where Next renders
 * app/not-found.tsx on the server, with a 404, in the link's `?lang=` (passed on) or the payer's.
 * notFound() from these pages answered 404 with an empty document, blank until the browser's code
 * drew the message: React's server renderer has no error boundaries, so a page's notFound() fails
 * the whole render, and Next 16 renders the not-found page in its place only for server actions
 * (vercel/next.js#62228).
 */
export function unknownCheckout(checkoutId: string, query: Record<string, unknown>): never {
  const lang = isLocale(query.lang) ? `?lang=${query.lang}` : "";
  redirect(`/checkout/${encodeURIComponent(checkoutId)}/unknown${lang}`);
}
