import { randomUUID } from "node:crypto";
import { AskAgain } from "@/components/checkout/AskAgain";
import { filterBanks } from "@/components/bank-picker/filter";
import { CheckoutPayment } from "@/components/checkout/CheckoutPayment";
import type { InFlightAttempt } from "@/components/checkout/AttemptPanel";
import { SHOW_DEADLINE_WITHIN_MS, type Expiry } from "@/components/checkout/deadline-time";
import { shopLink } from "@/components/checkout/links";
import type { PaymentFormProps } from "@/components/checkout/PaymentForm";
import type { KeptChoices, QueryNotices } from "@/components/checkout/posted-form";
import { formatMoney } from "@/components/ui/money";
import { appContext } from "@/lib/checkout/app-context";
import { listBanks } from "@/lib/checkout/banks";
import type { BanksResponse } from "@/lib/checkout/contract";
import type { CheckoutPageData } from "@/lib/checkout/page-data";
import { errorMessageId, isErrorCode } from "@/lib/errors";
import { payerErrorCodes } from "@/lib/http/openapi";
import { countryName, format, messages, pickMessages, type Locale, type Messages } from "@/lib/i18n";

// The provider's documents the payer agrees to when choosing the bank on our page.
const TERMS_URL = "https://kevin.eu/terms-conditions";
const PRIVACY_URL = "https://kevin.eu/privacy-policy";

export type PageState = "paid" | "expired" | "cancelled" | "attempt" | "form";

export function stateOf(data: CheckoutPageData): PageState {
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

/** The time zone of a checkout country, for the deadline in the HTML; the page shows the payer's own once it runs. */
const COUNTRY_TIME_ZONES: Record<string, string> = {
  LT: "Europe/Vilnius",
  LV: "Europe/Riga",
  EE: "Europe/Tallinn",
};

/** When the checkout ends, when that is soon enough for the page to say so (WCAG 2.2.1). */
function expiryOf(data: CheckoutPageData): Expiry | null {
  const now = Date.now();
  if (Date.parse(data.checkout.expiresAt) - now > SHOW_DEADLINE_WITHIN_MS) return null;
  return { at: data.checkout.expiresAt, serverNow: now, timeZone: COUNTRY_TIME_ZONES[data.defaultCountry] ?? "UTC" };
}

async function banksFor(country: string): Promise<BanksResponse | null> {
  try {
    return await listBanks(country, await appContext());
  } catch {
    return null; // the picker fetches them itself, with a retry
  }
}

/**
 * What the form says first: why a post the browser made by itself came back, that the payer
 * stopped the attempt, that the last one failed, how saving the bank account went, or that the
 * saved one has ended.
 */
function firstNotice(data: CheckoutPageData, notices: QueryNotices, refused: string | null, t: Messages): Notice {
  if (refused) return { text: refused, tone: "warning", focus: true };
  if (notices.stopped) return { text: t["attempt.abandoned"], tone: "info", focus: true };
  const { checkout, attempt, savedAccount } = data;
  if (checkout.status === "failed" || (attempt?.statusGroup === "failed" && !attempt.abandoned))
    return { text: t["checkout.failedNotice"], tone: "warning", focus: false };
  const { saved } = notices;
  if (saved) return { text: t[`saved.notice.${saved}`], tone: saved === "failed" ? "warning" : "info", focus: false };
  if (savedAccount?.state === "expired")
    return { text: format(t["saved.expired"], { bank: savedAccount.bankName }), tone: "warning", focus: false };
  return null;
}

type Notice = PaymentFormProps["notice"];

/** `?refused=`: what stopped the form the browser posted by itself (app/checkout/[checkoutId]/pay). */
function refusedText(refused: unknown, t: Messages): string | null {
  if (refused === "bank") return t["pay.missing.bank"];
  if (refused === "terms") return t["pay.missing.terms"];
  if (refused === "both") return t["pay.missing.both"];
  return isErrorCode(refused) ? t[errorMessageId(refused)] : null;
}

interface PaymentSectionProps {
  data: CheckoutPageData;
  /** The page's query: `?another=1`, the saved account's "Pay another way" followed without the page's code. */
  query: Record<string, unknown>;
  /** The payer's choices the query brought back from our own pages (load-page.ts). */
  kept: KeptChoices;
  /** What the query asks the form to say, where it may be believed (load-page.ts). */
  notices: QueryNotices;
  /** Inside the merchant's own page (embed.js): the bank picker only, and no way back to the shop. */
  embedded?: boolean;
}

/**
 * The checkout's payment card, the same on our page and in the merchant's (embedded): how the
 * checkout ended, the attempt in flight, or the form with the payer's saved account first.
 */
/**
 * The words the payment card's code needs, and no more: they travel in every page's RSC payload,
 * which the browser parses before the page comes alive (ADR 26). Refusals only of the routes the
 * payer's pages call; the payment in flight's and the saved account's words only when the page
 * shows them.
 */
function islandMessages(locale: Locale, shows: { attempt: boolean; saved: boolean }) {
  return pickMessages(locale, [
    "pay.",
    "errors.",
    "payError.",
    ...payerErrorCodes().map(errorMessageId),
    "picker.",
    "common.",
    ...(shows.attempt ? (["attempt."] as const) : []),
    ...(shows.saved ? (["saved."] as const) : []),
    "checkout.failedNotice",
    "expiry.",
    "checkout.expired.heading",
    "checkout.cancelled.heading",
    "checkout.ended.body",
  ]);
}

export async function PaymentSection({ data, query, kept, notices, embedded = false }: PaymentSectionProps) {
  const { checkout, locale, attempt } = data;
  const t = messages(locale);
  const state = stateOf(data);

  if (state === "paid" || state === "expired" || state === "cancelled") {
    const backToShop = embedded ? null : shopLink(checkout.returnUrl, checkout.id);
    return (
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
    );
  }

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
  // What the payer chose before a refused post, where this page still offers it.
  const country = kept.country && data.countries.includes(kept.country) ? kept.country : data.defaultCountry;
  const initialBanks = state === "form" && data.methods.bank ? await banksFor(country) : null;
  const keptBank = initialBanks?.banks.some((b) => b.id === kept.bankId) ? kept.bankId : undefined;
  // An ended saved account's bank starts the form, "Remember" ticked, to save it again.
  const expired = data.savedAccount?.state === "expired" ? data.savedAccount : null;
  // "Pay another way" followed without the page's code (?another=1): the form, not the saved account.
  const savedAccount = query.another === "1" && data.savedAccount?.state === "active" ? null : data.savedAccount;
  const refused = refusedText(notices.refused, t);
  const id = encodeURIComponent(checkout.id);

  return (
    <section className="card" aria-labelledby="pay-heading">
      <h2 id="pay-heading" className="pay-heading">
        {embedded ? t["embed.heading"] : t["checkout.payHeading"]}
      </h2>
      <CheckoutPayment
        checkoutId={checkout.id}
        locale={locale}
        amountText={formatMoney(checkout.amount, checkout.currency, locale)}
        payee={checkout.creditorName}
        methods={data.methods}
        embedded={embedded}
        countries={data.countries.map((code) => ({ code, name: countryName(code, locale) }))}
        defaultCountry={country}
        initialBanks={initialBanks}
        initialChoice={kept.choice}
        initialBankId={keptBank ?? expired?.bankId}
        initialSearch={kept.search}
        initialShowAll={kept.showAllBanks}
        rememberByDefault={kept.remember || expired !== null}
        startNewAttempt={lastOver}
        notice={firstNotice(data, notices, refused, t)}
        refused={refused}
        post={
          embedded
            ? undefined
            : {
                action: `/checkout/${id}/pay`,
                attemptKey: randomUUID(),
                showBanks: <AskAgain path={`/checkout/${id}`} label={t["pay.showBanks"]} />,
                searchBanks: <AskAgain path={`/checkout/${id}`} label={t["picker.search"]} />,
                showAllBanks: initialBanks && (
                  <AskAgain
                    path={`/checkout/${id}`}
                    label={format(t["picker.showAll"], {
                      count: filterBanks(initialBanks.banks, kept.search ?? "").length,
                    })}
                    name="banks"
                    value="all"
                    className="link-button show-all"
                  />
                ),
              }
        }
        attempt={inFlight}
        statusHref={`/checkout/${id}/return`}
        expiry={expiryOf(data)}
        shopHref={embedded ? null : shopLink(checkout.returnUrl, checkout.id)}
        termsUrl={TERMS_URL}
        privacyUrl={PRIVACY_URL}
        offerSave={data.canSaveAccount}
        savedAccount={savedAccount}
        messages={islandMessages(locale, {
          attempt: inFlight !== null,
          saved: data.canSaveAccount || savedAccount !== null,
        })}
      />
    </section>
  );
}
