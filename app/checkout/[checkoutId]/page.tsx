import type { Metadata } from "next";
import { loadCheckoutPage, type CheckoutRouteProps } from "@/components/checkout/load-page";
import { notFound } from "next/navigation";
import { CheckoutPayment, type SavedNotice } from "@/components/checkout/CheckoutPayment";
import type { InFlightAttempt } from "@/components/checkout/AttemptPanel";
import { OrderSummary } from "@/components/checkout/OrderSummary";
import { PageFrame } from "@/components/checkout/PageFrame";
import { shopLink } from "@/components/checkout/links";
import { PhoneQr } from "@/components/checkout/PhoneQr";
import { QrHandoff } from "@/components/checkout/QrHandoff";
import { formatMoney } from "@/components/ui/money";
import { appContext } from "@/lib/checkout/app-context";
import { listBanks } from "@/lib/checkout/banks";
import type { BanksResponse } from "@/lib/checkout/contract";
import type { CheckoutPageData } from "@/lib/checkout/page-data";
import { env } from "@/lib/env";
import { countryName, format, messages, pickMessages } from "@/lib/i18n";

export const dynamic = "force-dynamic";

// The provider's documents the payer agrees to when choosing the bank on our page.
const TERMS_URL = "https://kevin.eu/terms-conditions";
const PRIVACY_URL = "https://kevin.eu/privacy-policy";

export async function generateMetadata(props: CheckoutRouteProps): Promise<Metadata> {
  const { data } = await loadCheckoutPage(props, { savedAccount: true });
  // The checkout id in the URL is the payer's only credential: keep these pages out of indexes.
  return { title: messages(data?.locale ?? "en")["checkout.title"], robots: { index: false, follow: false } };
}

type PageState = "paid" | "expired" | "cancelled" | "attempt" | "form";

function stateOf(data: CheckoutPageData): PageState {
  const { checkout, attempt } = data;
  if (checkout.status === "paid") return "paid";
  if (checkout.status === "cancelled") return "cancelled";
  if (checkout.status === "expired") return "expired";
  if (
    attempt &&
    !attempt.abandoned &&
    (attempt.statusGroup === null || attempt.statusGroup === "started" || attempt.statusGroup === "pending")
  ) {
    return "attempt";
  }
  if (Date.parse(checkout.expiresAt) <= Date.now()) return "expired";
  return "form";
}

async function banksFor(country: string): Promise<BanksResponse | null> {
  try {
    return await listBanks(country, await appContext());
  } catch {
    return null; // the picker fetches them itself, with a retry
  }
}

const SAVED_NOTICES: readonly SavedNotice[] = ["declined", "failed", "elsewhere", "linked"];

export default async function CheckoutPage(props: CheckoutRouteProps) {
  const { data, query } = await loadCheckoutPage(props, { savedAccount: true });
  if (!data) notFound();

  const { checkout, locale } = data;
  const t = messages(locale);
  const state = stateOf(data);
  const id = encodeURIComponent(checkout.id);
  const path = `/checkout/${id}`;
  const statusHref = `${path}/return`;
  const amountText = formatMoney(checkout.amount, checkout.currency, locale);
  const backToShop = shopLink(checkout.returnUrl, checkout.id);
  const attempt = data.attempt;
  const inFlight: InFlightAttempt | null =
    state === "attempt" && attempt
      ? {
          method: attempt.method,
          bankName: attempt.bankName,
          statusGroup:
            attempt.statusGroup === "pending" ? "pending" : attempt.statusGroup === "started" ? "started" : null,
        }
      : null;
  const lastOver = attempt !== null && (attempt.abandoned || attempt.statusGroup === "failed");
  const initialBanks = state === "form" && data.methods.bank ? await banksFor(data.defaultCountry) : null;

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
            <OrderSummary checkout={checkout} locale={locale} />

            {state === "paid" || state === "expired" || state === "cancelled" ? (
              <section className="card" aria-labelledby="checkout-state-heading">
                <h2 id="checkout-state-heading">
                  {state === "paid"
                    ? t["checkout.paid.heading"]
                    : state === "expired"
                      ? t["checkout.expired.heading"]
                      : t["checkout.cancelled.heading"]}
                </h2>
                <p>{state === "paid" ? t["checkout.paid.body"] : t["checkout.ended.body"]}</p>
                {backToShop && (
                  <a className="btn btn-secondary" href={backToShop}>
                    {t["common.returnToShop"]}
                  </a>
                )}
              </section>
            ) : (
              <section className="card" aria-labelledby="pay-heading">
                <h2 id="pay-heading">{t["checkout.payHeading"]}</h2>
                <CheckoutPayment
                  checkoutId={checkout.id}
                  locale={locale}
                  amountText={amountText}
                  payee={checkout.creditorName}
                  methods={data.methods}
                  countries={data.countries.map((code) => ({ code, name: countryName(code, locale) }))}
                  defaultCountry={data.defaultCountry}
                  initialBanks={initialBanks}
                  startNewAttempt={lastOver}
                  failedBefore={
                    checkout.status === "failed" || (attempt?.statusGroup === "failed" && !attempt.abandoned)
                  }
                  attempt={inFlight}
                  statusHref={statusHref}
                  termsUrl={TERMS_URL}
                  privacyUrl={PRIVACY_URL}
                  offerSave={data.canSaveAccount}
                  savedAccount={data.savedAccount}
                  savedNotice={SAVED_NOTICES.find((n) => n === query.saved) ?? null}
                  messages={pickMessages(locale, [
                    "pay.",
                    "errors.",
                    "payError.",
                    "apiError.",
                    "picker.",
                    "common.",
                    "attempt.",
                    "saved.",
                    "checkout.failedNotice",
                  ])}
                />
              </section>
            )}
          </div>
        </div>
        {(state === "form" || state === "attempt") && <PhoneQr url={`${env().appUrl}${path}`} locale={locale} />}
        {state === "form" && <QrHandoff checkoutId={checkout.id} />}
      </main>
    </PageFrame>
  );
}
