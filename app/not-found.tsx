import type { Metadata } from "next";
import { cookies, headers } from "next/headers";
import Link from "next/link";
import { DocumentLang } from "@/components/i18n/DocumentLang";
import { LANG_COOKIE, messages, resolveLocale, type Locale } from "@/lib/i18n";

async function locale(): Promise<Locale> {
  const [jar, h] = await Promise.all([cookies(), headers()]);
  return resolveLocale({ cookie: jar.get(LANG_COOKIE)?.value, acceptLanguage: h.get("accept-language") });
}

export async function generateMetadata(): Promise<Metadata> {
  return { title: messages(await locale())["notFound.title"] };
}

/** Also what a payer sees for an unknown or mistyped checkout link, in their language. */
export default async function NotFound() {
  const l = await locale();
  const t = messages(l);
  return (
    <div lang={l}>
      <DocumentLang locale={l} />
      <main className="page">
        <div className="card not-found">
          <h1>{t["notFound.title"]}</h1>
          <p className="muted">{t["notFound.body"]}</p>
          <div className="actions" style={{ justifyContent: "center" }}>
            <Link className="btn btn-secondary" href="/">
              {t["notFound.link"]}
            </Link>
          </div>
        </div>
      </main>
    </div>
  );
}
