import type { Metadata } from "next";
import { loadCheckoutPage, unknownCheckout, type CheckoutRouteProps } from "@/components/checkout/load-page";
import { OrderSummary } from "@/components/checkout/OrderSummary";
import { PageFrame } from "@/components/checkout/PageFrame";
import { PaymentSection, stateOf } from "@/components/checkout/PaymentSection";
import { PhoneQr } from "@/components/checkout/PhoneQr";
import { QrHandoff } from "@/components/checkout/QrHandoff";
import { localTitle } from "@/components/i18n/page-title";
import { env } from "@/lib/env";
import { format, messages } from "@/lib/i18n";

export const dynamic = "force-dynamic";

export async function generateMetadata(props: CheckoutRouteProps): Promise<Metadata> {
  const { data } = await loadCheckoutPage(props, { savedAccount: true });
  const t = messages(data?.locale ?? "en");
  // The checkout id in the URL is the payer's only credential: keep these pages out of indexes.
  return {
    title: localTitle(t["checkout.title"], t["meta.siteName"]),
    description: t["meta.description"],
    robots: { index: false, follow: false },
  };
}

export default async function CheckoutPage(props: CheckoutRouteProps) {
  const { data, query, kept, notices } = await loadCheckoutPage(props, { savedAccount: true });
  if (!data) unknownCheckout((await props.params).checkoutId, query);

  const { checkout, locale } = data;
  const t = messages(locale);
  const state = stateOf(data);
  const id = encodeURIComponent(checkout.id);
  const path = `/checkout/${id}`;

  return (
    <PageFrame
      locale={locale}
      path={path}
      sandbox={data.sandboxProject}
      accessibilityHref={`/accessibility?lang=${locale}&checkout=${id}`}
    >
      <main className="page page-checkout">
        <div className="checkout-main">
          <header className="page-header">
            <h1>{t["checkout.heading"]}</h1>
            <p>{format(t["checkout.intro"], { payee: checkout.creditorName })}</p>
          </header>
          <div className="stack">
            <OrderSummary checkout={checkout} locale={locale} itemsOpen={false} />
            <PaymentSection data={data} query={query} kept={kept} notices={notices} />
          </div>
        </div>
        {(state === "form" || state === "attempt") && <PhoneQr url={`${env().appUrl}${path}`} locale={locale} />}
        {state === "form" && <QrHandoff checkoutId={checkout.id} />}
      </main>
    </PageFrame>
  );
}
