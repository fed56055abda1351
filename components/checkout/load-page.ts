import "server-only";
import { cookies, headers } from "next/headers";
import { cache } from "react";
import { appContext } from "@/lib/checkout/app-context";
import { getCheckoutPageData } from "@/lib/checkout/page-data";
import { LANG_COOKIE, requestedLocale } from "@/lib/i18n";
import { PAYER_HANDLE_COOKIE } from "@/lib/checkout/saved-accounts/payer-handle";
import { keptChoices } from "./posted-form";

export type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export interface CheckoutRouteProps {
  params: Promise<{ checkoutId: string }>;
  searchParams: SearchParams;
}

/** One computation per request, shared by a checkout page and its metadata. */
const load = cache(async (checkoutId: string, lang: string | undefined, payerHandle: string | undefined) =>
  getCheckoutPageData(checkoutId, { headers: await headers(), lang, payerHandle }, await appContext()),
);

/**
 * The checkout page data for this request, in the language the payer asked for (?lang=, then the
 * cookie); with the payer's saved bank account when the page offers paying with one; and the
 * choices the query brings back, when our own pages sent it.
 */
export async function loadCheckoutPage(
  { params, searchParams }: CheckoutRouteProps,
  opts: { savedAccount?: boolean } = {},
) {
  const [{ checkoutId }, query, jar, sent] = await Promise.all([params, searchParams, cookies(), headers()]);
  return {
    data: await load(
      checkoutId,
      requestedLocale(query.lang, jar.get(LANG_COOKIE)?.value),
      opts.savedAccount ? jar.get(PAYER_HANDLE_COOKIE)?.value : undefined,
    ),
    query,
    kept: keptChoices(query, sent.get("sec-fetch-site")),
  };
}
