import type { Metadata } from "next";
import { loadCheckoutPage, type CheckoutRouteProps } from "@/components/checkout/load-page";
import { PaymentSection } from "@/components/checkout/PaymentSection";
import { EmbedBridge } from "@/components/embed/EmbedBridge";
import { NotFoundCard, notFoundLocale } from "@/components/errors/NotFound";
import { DocumentLang } from "@/components/i18n/DocumentLang";
import { localTitle } from "@/components/i18n/page-title";
import { env } from "@/lib/env";
import { messages, type Locale } from "@/lib/i18n";

export const dynamic = "force-dynamic";

export async function generateMetadata(props: CheckoutRouteProps): Promise<Metadata> {
  const { data } = await loadCheckoutPage(props, { savedAccount: true });
  const t = messages(data?.locale ?? "en");
  return {
    title: localTitle(t["embed.heading"], t["meta.siteName"]),
    description: t["meta.description"],
    robots: { index: false, follow: false },
  };
}

/**
 * The bank picker inside the merchant's own page (embed.js; issue 20, ADR 20): the checkout's
 * payment card alone. Only EMBED_ORIGINS may frame it (proxy.ts), and it sends its events only to
 * the page that says it is one of them.
 */
export default async function EmbeddedCheckout(props: CheckoutRouteProps) {
  const { data, query, kept, notices } = await loadCheckoutPage(props, { savedAccount: true });
  // Said here, in the frame: the not-found page the other checkout pages go on to (unknownCheckout)
  // may not be framed (proxy.ts). The price is a 200 instead of a 404.
  if (!data) return <UnknownInFrame locale={await notFoundLocale(query.lang)} />;
  const { locale } = data;
  const t = messages(locale);
  const parent = typeof query.parent === "string" ? query.parent : null;
  const parentOrigin = parent && env().embedOrigins.includes(parent) ? parent : null;

  return (
    <div lang={locale} className="embed">
      <DocumentLang locale={locale} />
      <EmbedBridge parentOrigin={parentOrigin} />
      <main className="stack">
        {data.sandboxProject && (
          <p className="test-banner embed-banner small">
            <strong>{t["common.testBannerLabel"]}</strong> · {t["common.testBanner"]}
          </p>
        )}
        <PaymentSection data={data} query={query} kept={kept} notices={notices} embedded />
      </main>
    </div>
  );
}

function UnknownInFrame({ locale }: { locale: Locale }) {
  return (
    <div lang={locale} className="embed">
      <DocumentLang locale={locale} />
      <main className="stack">
        <NotFoundCard locale={locale} />
      </main>
    </div>
  );
}
