import type { Metadata } from "next";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { AwayRetry } from "@/components/errors/AwayRetry";
import { notFoundLocale } from "@/components/errors/NotFound";
import { DocumentLang } from "@/components/i18n/DocumentLang";
import { AWAY_HEADER } from "@/lib/http/away-page";
import { ERROR_TEXT } from "@/lib/i18n/error-text";

interface Props {
  searchParams: Promise<{ lang?: string | string[] }>;
}

export async function generateMetadata({ searchParams }: Props): Promise<Metadata> {
  return { title: ERROR_TEXT[await notFoundLocale((await searchParams).lang)].awayTitle };
}

/**
 * What a page answers, with a 503, while this instance finds its database away (proxy.ts): that
 * the checkout is back in a moment and nothing was paid or lost, in the payer's language (the
 * page's ?lang=, else their choice or their browser's), and the same address asked again after
 * 5 seconds by the page's code, or by Try again, a link that needs none. Reads no database. Asked
 * for by its own address, it is not a page.
 */
export default async function Unavailable({ searchParams }: Props) {
  const address = (await headers()).get(AWAY_HEADER);
  if (!address) notFound();
  const l = await notFoundLocale((await searchParams).lang);
  return (
    <div lang={l}>
      <DocumentLang locale={l} />
      {/* One leading slash: a path "//host" must stay on this site. */}
      <AwayRetry lang={l} address={"/" + address.replace(/^\/+/, "")} />
    </div>
  );
}
