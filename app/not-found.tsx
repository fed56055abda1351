import type { Metadata } from "next";
import Link from "next/link";
import { NotFoundCard, notFoundLocale } from "@/components/errors/NotFound";
import { DocumentLang } from "@/components/i18n/DocumentLang";
import { localTitle } from "@/components/i18n/page-title";
import { messages } from "@/lib/i18n";

export async function generateMetadata(): Promise<Metadata> {
  const t = messages(await notFoundLocale());
  return { title: localTitle(t["notFound.title"], t["meta.siteName"]), description: t["meta.description"] };
}

/** Also what a payer sees for an unknown or mistyped checkout link (load-page.ts), in their language. */
export default async function NotFound() {
  const l = await notFoundLocale();
  return (
    <div lang={l}>
      <DocumentLang locale={l} />
      <main className="page">
        <NotFoundCard locale={l}>
          <div className="actions" style={{ justifyContent: "center" }}>
            <Link className="btn btn-secondary" href="/">
              {messages(l)["notFound.link"]}
            </Link>
          </div>
        </NotFoundCard>
      </main>
    </div>
  );
}
