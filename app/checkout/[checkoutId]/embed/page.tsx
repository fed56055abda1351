import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { loadCheckoutPage, type CheckoutRouteProps } from "@/components/checkout/load-page";
import { PaymentSection } from "@/components/checkout/PaymentSection";
import { EmbedBridge } from "@/components/embed/EmbedBridge";
import { DocumentLang } from "@/components/i18n/DocumentLang";
import { env } from "@/lib/env";
import { messages } from "@/lib/i18n";

export const dynamic = "force-dynamic";

export async function generateMetadata(props: CheckoutRouteProps): Promise<Metadata> {
  const { data } = await loadCheckoutPage(props, { savedAccount: true });
  return { title: messages(data?.locale ?? "en")["embed.heading"], robots: { index: false, follow: false } };
}

/**
 * The bank picker inside the merchant's own page (embed.js; issue 20, ADR 20): the checkout's
 * payment card alone. Only EMBED_ORIGINS may frame it (proxy.ts), and it sends its events only to
 * the page that says it is one of them.
 */
export default async function EmbeddedCheckout(props: CheckoutRouteProps) {
  const { data, query, kept } = await loadCheckoutPage(props, { savedAccount: true });
  if (!data) notFound();
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
        <PaymentSection data={data} query={query} kept={kept} embedded />
      </main>
    </div>
  );
}
