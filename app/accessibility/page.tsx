import type { Metadata } from "next";
import { cookies, headers } from "next/headers";
import { PageFrame } from "@/components/checkout/PageFrame";
import { localTitle } from "@/components/i18n/page-title";
import { LANG_COOKIE, messages, requestedLocale, resolveLocale, type Locale } from "@/lib/i18n";

export const dynamic = "force-dynamic";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

async function pageLocale(searchParams: SearchParams): Promise<{ locale: Locale; checkoutId: string | null }> {
  const [query, jar, h] = await Promise.all([searchParams, cookies(), headers()]);
  const locale = resolveLocale({
    requested: requestedLocale(query.lang, jar.get(LANG_COOKIE)?.value),
    acceptLanguage: h.get("accept-language"),
  });
  const checkout = typeof query.checkout === "string" && /^[\w-]{1,100}$/.test(query.checkout) ? query.checkout : null;
  return { locale, checkoutId: checkout };
}

export async function generateMetadata({ searchParams }: { searchParams: SearchParams }): Promise<Metadata> {
  const { locale } = await pageLocale(searchParams);
  const t = messages(locale);
  return { title: localTitle(t["a11y.title"], t["meta.siteName"]) };
}

/** The accessibility statement of the payer-facing pages, linked from the checkout's footer. */
export default async function AccessibilityPage({ searchParams }: { searchParams: SearchParams }) {
  const { locale, checkoutId } = await pageLocale(searchParams);
  const t = messages(locale);
  const back = checkoutId ? `/checkout/${encodeURIComponent(checkoutId)}?lang=${locale}` : null;

  return (
    <PageFrame
      locale={locale}
      path="/accessibility"
      query={checkoutId ? { checkout: checkoutId } : {}}
      sandbox={false}
      accessibilityHref={null}
    >
      <main className="page page-prose">
        <article className="card prose">
          <h1>{t["a11y.title"]}</h1>
          <p>{t["a11y.intro"]}</p>

          <h2>{t["a11y.statusHeading"]}</h2>
          <p>{t["a11y.status"]}</p>

          <h2>{t["a11y.measuresHeading"]}</h2>
          <ul>
            <li>{t["a11y.measure1"]}</li>
            <li>{t["a11y.measure2"]}</li>
            <li>{t["a11y.measure3"]}</li>
            <li>{t["a11y.measure4"]}</li>
            <li>{t["a11y.measure5"]}</li>
          </ul>

          <h2>{t["a11y.limitsHeading"]}</h2>
          <ul>
            <li>{t["a11y.limit1"]}</li>
            <li>{t["a11y.limit2"]}</li>
          </ul>

          <h2>{t["a11y.feedbackHeading"]}</h2>
          <p>{t["a11y.feedback"]}</p>

          <h2>{t["a11y.enforcementHeading"]}</h2>
          <p>{t["a11y.enforcement"]}</p>

          <p className="muted small">{t["a11y.prepared"]}</p>
          {back && (
            <p>
              <a className="btn btn-secondary" href={back}>
                {t["a11y.back"]}
              </a>
            </p>
          )}
        </article>
      </main>
    </PageFrame>
  );
}
