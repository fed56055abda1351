import type { Metadata } from "next";
import { cookies, headers } from "next/headers";
import { notFound } from "next/navigation";
import { cache } from "react";
import { OrderSummary } from "@/components/checkout/OrderSummary";
import { PageFrame } from "@/components/checkout/PageFrame";
import { PaymentStatus } from "@/components/payment-status/PaymentStatus";
import { getCheckoutPageData } from "@/lib/checkout/page-data";
import { LANG_COOKIE, messages, pickMessages, requestedLocale } from "@/lib/i18n";

export const dynamic = "force-dynamic";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

interface ReturnPageProps {
  params: Promise<{ checkoutId: string }>;
  searchParams: SearchParams;
}

const loadPage = cache(async (checkoutId: string, lang: string | undefined) =>
  getCheckoutPageData(checkoutId, { headers: await headers(), lang }),
);

async function requested(searchParams: SearchParams): Promise<string | undefined> {
  const [query, jar] = await Promise.all([searchParams, cookies()]);
  return requestedLocale(query.lang, jar.get(LANG_COOKIE)?.value);
}

export async function generateMetadata({ params, searchParams }: ReturnPageProps): Promise<Metadata> {
  const { checkoutId } = await params;
  const data = await loadPage(checkoutId, await requested(searchParams));
  return { title: messages(data?.locale ?? "en")["status.title"], robots: { index: false, follow: false } };
}

/**
 * Where the provider sends the payer back. Its query string is never read for the outcome: that
 * comes from the server, which asks the provider while the status is not final. Only `?lang=` is
 * honoured, like on the checkout page (the provider's redirect carries none, so the language
 * cookie set by the switcher, the checkout's locale or the browser's languages decide).
 */
export default async function ReturnPage({ params, searchParams }: ReturnPageProps) {
  const { checkoutId } = await params;
  const data = await loadPage(checkoutId, await requested(searchParams));
  if (!data) notFound();
  const { checkout, locale } = data;
  const id = encodeURIComponent(checkout.id);

  return (
    <PageFrame locale={locale} path={`/checkout/${id}/return`} sandbox={data.sandboxProject} accessibilityHref={`/accessibility?lang=${locale}&checkout=${id}`}>
      <main className="page">
        <div className="stack">
          <PaymentStatus
            checkoutId={checkout.id}
            checkoutHref={`/checkout/${id}`}
            messages={pickMessages(locale, ["status.", "common.returnToShop", "common.tryAgain"])}
          />
          <OrderSummary
            creditorName={checkout.creditorName}
            description={checkout.description}
            reference={checkout.reference}
            amount={checkout.amount}
            currency={checkout.currency}
            locale={locale}
          />
        </div>
      </main>
    </PageFrame>
  );
}
