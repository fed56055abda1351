import type { Metadata } from "next";
import { headers } from "next/headers";
import { cache, Suspense } from "react";
import { loadCheckoutPage, unknownCheckout, type CheckoutRouteProps } from "@/components/checkout/load-page";
import { OrderSummary } from "@/components/checkout/OrderSummary";
import { PageFrame } from "@/components/checkout/PageFrame";
import { localTitle } from "@/components/i18n/page-title";
import { outcomeOf, wordsOf } from "@/components/payment-status/outcome";
import { PaymentStatus } from "@/components/payment-status/PaymentStatus";
import { messages, pickMessages } from "@/lib/i18n";
import { appContext } from "@/lib/checkout/app-context";
import { returnQuery } from "@/lib/checkout/payments";
import { cameBackFrom } from "@/lib/checkout/return-visit";
import { returnReadHits } from "@/lib/http/rate-limit";
import { withinMs } from "@/lib/checkout/poll";
import type { CheckoutStatusView } from "@/lib/checkout/contract";
import { getCheckoutStatus } from "@/lib/checkout/checkout-status";
import { orDatabaseAway } from "@/lib/db/unavailable";

/**
 * The attempt the payer came back from, if the query names one and this load may ask about it
 * (cameBackFrom). With the provider's payment id it names the payment of an attempt whose
 * initiation we may never have finished recording (an instance died); that is checked with the
 * provider before use.
 */
async function adoptFromReturn({ params, searchParams }: CheckoutRouteProps): Promise<string | undefined> {
  const [{ checkoutId }, query] = await Promise.all([params, searchParams]);
  const parsed = returnQuery.safeParse(query);
  if (!parsed.success || !parsed.data.attempt) return undefined;
  return cameBack(checkoutId, parsed.data.attempt, parsed.data.paymentId);
}

/** Once per request: the page and its title both need it done before they read the status, and it counts one load. */
const cameBack = cache(async (checkoutId: string, attempt: string, paymentId: string | undefined) =>
  orDatabaseAway(async () =>
    cameBackFrom(await appContext(), checkoutId, { attempt, paymentId }, returnReadHits(attempt, await headers())),
  ),
);

export const dynamic = "force-dynamic";

/**
 * How long the page waits for the provider before it shows what is stored and lets the browser
 * poll. The page has no loading state (no loading.tsx) for that wait: streamed content stays
 * hidden until a script reveals it, never without JavaScript, and with it only after React's
 * reveal throttle (300 ms after the loading state's first paint). Whole HTML, at most this late,
 * shows the outcome in the first paint.
 */
const PROVIDER_WAIT_MS = 1500;

/**
 * The status for the first paint: the provider's answer if it comes in time, else what is stored.
 * Asked once per request: the page's title names the same outcome as its heading.
 */
const initialStatus = cache(async (checkoutId: string, returnedFrom?: string): Promise<CheckoutStatusView | null> => {
  const ctx = await appContext();
  try {
    return (
      (await withinMs(getCheckoutStatus(checkoutId, ctx, { returnedFrom }), PROVIDER_WAIT_MS)) ??
      (await getCheckoutStatus(checkoutId, ctx, { askProvider: false }))
    );
  } catch {
    return null; // the browser asks itself
  }
});

/**
 * The title says what the heading says (paid, failed, still confirming...), in the HTML itself: a
 * payer without the page's code, or before it runs, hears the outcome in the tab's name too.
 * PaymentStatus keeps it so as the status changes.
 */
export async function generateMetadata(props: CheckoutRouteProps): Promise<Metadata> {
  const returnedFrom = await adoptFromReturn(props);
  const { data } = await loadCheckoutPage(props);
  const t = messages(data?.locale ?? "en");
  const status = data ? await initialStatus(data.checkout.id, returnedFrom) : null;
  const name = data ? t[wordsOf(status, outcomeOf(status, false, false)).heading] : t["status.title"];
  return {
    title: localTitle(name, t["meta.siteName"]),
    description: t["meta.description"],
    robots: { index: false, follow: false },
  };
}

/**
 * Where the provider sends the payer back. Its query string is never read for the outcome: that
 * comes from the server, which asks the provider while the status is not final (and about the
 * attempt the payer came back from, which may not be the latest). Only `?lang=` is
 * honoured, like on the checkout page (the provider's redirect carries none, so the language
 * cookie set by the switcher, the checkout's locale or the browser's languages decide).
 */
export default async function ReturnPage(props: CheckoutRouteProps) {
  const returnedFrom = await adoptFromReturn(props);
  const { data, query } = await loadCheckoutPage(props);
  if (!data) unknownCheckout((await props.params).checkoutId, query);
  const { checkout, locale } = data;
  const id = encodeURIComponent(checkout.id);
  const initial = await initialStatus(checkout.id, returnedFrom);
  const t = messages(locale);

  return (
    <PageFrame
      locale={locale}
      path={`/checkout/${id}/return`}
      sandbox={data.sandboxProject}
      accessibilityHref={`/accessibility?lang=${locale}&checkout=${id}`}
    >
      <main className="page">
        <div className="stack">
          {/* Hydrated after the page, in slices: no long task on a phone (as the checkout's form, ADR 12). */}
          <Suspense>
            <PaymentStatus
              checkoutId={checkout.id}
              checkoutHref={`/checkout/${id}`}
              checkAgainLink={
                <noscript>
                  <a className="btn btn-primary" href={`/checkout/${id}/return`}>
                    {t["status.checkAgain"]}
                  </a>
                </noscript>
              }
              initial={initial}
              messages={pickMessages(locale, ["status.", "common.returnToShop", "common.tryAgain"])}
            />
          </Suspense>
          <OrderSummary checkout={checkout} locale={locale} itemsOpen={checkout.lineItems.length <= 3} />
        </div>
      </main>
    </PageFrame>
  );
}
