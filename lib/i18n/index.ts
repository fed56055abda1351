/**
 * The message catalogue and language rules of the payer-facing pages. Plain TypeScript: server
 * components import it; client islands get their messages as props (see ./format.ts), so the
 * catalogues of other languages never reach the browser.
 *
 * Language of a page: `?lang=`, else the `lang` cookie (set when the payer picks a language with
 * the switcher, so the landing page after the bank speaks it too), else the checkout's locale,
 * else Accept-Language (q-values honoured), else English.
 */
import { LOCALES, type Locale } from "../checkout/types";
import { en, type MessageId, type Messages } from "./messages/en";
import { et } from "./messages/et";
import { lt } from "./messages/lt";
import { lv } from "./messages/lv";
import type { MessagesFor } from "./format";

export { format, templateParts, type MessagesFor } from "./format";
export type { Locale, MessageId, Messages };
export { LOCALES };

const CATALOGUE: Readonly<Record<Locale, Messages>> = { en, lt, lv, et };

export { LANG_COOKIE } from "./cookie";

/** Each language in its own name, for the switcher. */
export const LOCALE_NAMES: Readonly<Record<Locale, string>> = {
  en: "English",
  lt: "Lietuvių",
  lv: "Latviešu",
  et: "Eesti",
};

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (LOCALES as readonly string[]).includes(value);
}

export function messages(locale: Locale): Messages {
  return CATALOGUE[locale];
}

/** The messages of one language whose ids start with the given prefixes (what an island needs). */
export function pickMessages<P extends string>(locale: Locale, prefixes: readonly P[]): MessagesFor<P> {
  const all = CATALOGUE[locale];
  const out: Record<string, string> = {};
  for (const id of Object.keys(all) as MessageId[]) {
    if (prefixes.some((p) => id.startsWith(p))) out[id] = all[id];
  }
  return out as MessagesFor<P>;
}

/** The supported languages of an Accept-Language header, best first. */
export function languagesOf(acceptLanguage: string | null | undefined): Locale[] {
  if (!acceptLanguage) return [];
  return acceptLanguage
    .split(",")
    .map((part, index) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { lang: (tag.trim().split("-")[0] ?? "").toLowerCase(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((e) => e.q > 0 && isLocale(e.lang))
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map((e) => e.lang as Locale);
}

export function resolveLocale(from: {
  requested?: string | null;
  cookie?: string | null;
  checkoutLocale?: string | null;
  acceptLanguage?: string | null;
}): Locale {
  if (isLocale(from.requested)) return from.requested;
  if (isLocale(from.cookie)) return from.cookie;
  if (isLocale(from.checkoutLocale)) return from.checkoutLocale;
  return languagesOf(from.acceptLanguage)[0] ?? "en";
}

/** The explicit choice of this request, if any: `?lang=` first, then the cookie. */
export function requestedLocale(query: string | string[] | undefined, cookie: string | undefined): Locale | undefined {
  const q = Array.isArray(query) ? query[0] : query;
  if (isLocale(q)) return q;
  if (isLocale(cookie)) return cookie;
  return undefined;
}

/** A country's name in the page's language ("LV" -> "Latvija" in Latvian). */
export function countryName(code: string, locale: Locale): string {
  try {
    return new Intl.DisplayNames([locale], { type: "region" }).of(code) ?? code;
  } catch {
    return code;
  }
}
