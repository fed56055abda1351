import { cookies, headers } from "next/headers";
import type { ReactNode } from "react";
import { LANG_COOKIE, messages, resolveLocale, type Locale } from "@/lib/i18n";

/** The language of a page about a link we do not know: the link's `?lang=`, else the payer's choice (cookie), else the browser's. */
export async function notFoundLocale(requested?: unknown): Promise<Locale> {
  const [jar, h] = await Promise.all([cookies(), headers()]);
  return resolveLocale({
    requested: typeof requested === "string" ? requested : null,
    cookie: jar.get(LANG_COOKIE)?.value,
    acceptLanguage: h.get("accept-language"),
  });
}

/** What a payer reads for an unknown or mistyped link, with where to go next (`children`). */
export function NotFoundCard({ locale, children }: { locale: Locale; children?: ReactNode }) {
  const t = messages(locale);
  return (
    <div className="card not-found">
      <h1>{t["notFound.title"]}</h1>
      <p className="muted">{t["notFound.body"]}</p>
      {children}
    </div>
  );
}
