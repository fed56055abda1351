import "server-only";
import { cookies, headers } from "next/headers";
import { LANG_COOKIE, resolveLocale, type Locale } from "@/lib/i18n";
import { staffMessages, type StaffMessages } from "@/lib/i18n/staff-messages";

/**
 * The language of the staff's way in: `?lang=` on the page, else the language cookie (set by the
 * switcher), else the browser's Accept-Language, else English.
 */
export async function staffLocale(requested?: string | string[]): Promise<Locale> {
  return resolveLocale({
    requested: Array.isArray(requested) ? requested[0] : requested,
    cookie: (await cookies()).get(LANG_COOKIE)?.value,
    acceptLanguage: (await headers()).get("accept-language"),
  });
}

/** The sign-in words in this request's language. */
export async function staffWords(requested?: string | string[]): Promise<StaffMessages> {
  return staffMessages(await staffLocale(requested));
}
