import { LOCALES, type Locale } from "../checkout/types";

/** The cookie that remembers the language a payer chose with `?lang=` (a year, whole site, SameSite=Lax). */
export const LANG_COOKIE = "lang";
export const LANG_COOKIE_MAX_AGE_S = 365 * 24 * 60 * 60;

/** The language a `?lang=` asks for, when it is one of ours. */
export function chosenLocale(value: string | null): Locale | null {
  return value !== null && (LOCALES as readonly string[]).includes(value) ? (value as Locale) : null;
}
