import type { Metadata } from "next";
import Link from "next/link";
import { staffLocale, staffWords } from "@/components/backoffice/staff-locale";
import { DocumentLang } from "@/components/i18n/DocumentLang";
import { staffMessages } from "@/lib/i18n/staff-messages";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await staffWords())["forbidden.title"], robots: { index: false, follow: false } };
}

/** A signed-in staff member whose role may not open this page or do this (answered 403). */
export default async function Forbidden() {
  const locale = await staffLocale();
  const t = staffMessages(locale);
  return (
    <main className="page" lang={locale}>
      <DocumentLang locale={locale} />
      <div className="card">
        <h1>{t["forbidden.heading"]}</h1>
        <p>{t["forbidden.body"]}</p>
        <div className="actions">
          <Link className="btn btn-secondary" href="/backoffice">
            {t["forbidden.back"]}
          </Link>
        </div>
      </div>
    </main>
  );
}
