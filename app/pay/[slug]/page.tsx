import type { Metadata } from "next";
import { cookies, headers } from "next/headers";
import { notFound, redirect } from "next/navigation";
import { PageFrame } from "@/components/checkout/PageFrame";
import { localTitle } from "@/components/i18n/page-title";
import { formatMoney } from "@/components/ui/money";
import { appContext } from "@/lib/checkout/app-context";
import { orDatabaseAway } from "@/lib/db/unavailable";
import { env } from "@/lib/env";
import { format, LANG_COOKIE, messages, requestedLocale, resolveLocale, type Locale } from "@/lib/i18n";
import { getPaymentLink, isSlug, type PaymentLinkView } from "@/lib/payment-links/links";
import { payerProblems, type PayerProblem } from "@/lib/payment-links/pay";
import { PAY_PROBLEM_PARAM, payLinkPath } from "@/lib/payment-links/page-state";

export const dynamic = "force-dynamic";

type Props = {
  params: Promise<{ slug: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? "";

async function load({ params, searchParams }: Props) {
  const [{ slug }, query, jar, h] = await Promise.all([params, searchParams, cookies(), headers()]);
  const locale = resolveLocale({
    requested: requestedLocale(query.lang, jar.get(LANG_COOKIE)?.value),
    acceptLanguage: h.get("accept-language"),
  });
  const link = isSlug(slug) ? await orDatabaseAway(async () => getPaymentLink(await appContext(), slug)) : null;
  return { slug, query, locale, link: link?.slug === slug ? link : null };
}

export async function generateMetadata(props: Props): Promise<Metadata> {
  const { locale, link } = await load(props);
  const t = messages(locale);
  // A link's address is meant to be shared, but not found by a search engine.
  return {
    title: localTitle(link ? link.title : t["notFound.title"], t["meta.siteName"]),
    robots: { index: false, follow: false },
  };
}

/**
 * A payment link's page (ADR 32): the payer sees what they pay for, enters the amount and the
 * merchant's field if the link asks, and continues to an ordinary checkout. A plain form posted to
 * ./start, so it works before and without the page's code; nothing is made by opening it.
 */
export default async function PayLinkPage(props: Props) {
  const { slug, query, locale, link } = await load(props);
  if (!link) notFound();
  const t = messages(locale);
  const payee = (await appContext()).config.creditorName;
  const problem = one(query[PAY_PROBLEM_PARAM]);
  // The status of the answer follows the problem in the address (proxy.ts): an address that says
  // more or less than the truth is sent to the one that says it.
  if (link.status !== "active" && problem !== "payment_link_ended")
    redirect(payLinkPath(slug, { lang: one(query.lang), problem: "payment_link_ended" }));
  if (link.status === "active" && problem === "payment_link_ended")
    redirect(payLinkPath(slug, { lang: one(query.lang) }));

  const values = { amount: one(query.amount).slice(0, 40), field: one(query.field).slice(0, 400) };
  const problems = query.checked === "1" ? payerProblems(link, values) : [];
  return (
    <PageFrame
      locale={locale}
      path={`/pay/${slug}`}
      sandbox={env().sandbox}
      accessibilityHref={`/accessibility?lang=${locale}`}
    >
      <main className="page">
        <header className="page-header">
          <h1>{link.title}</h1>
          <p>{format(t["link.intro"], { payee })}</p>
        </header>
        {link.status !== "active" ? (
          <section className="card" aria-labelledby="ended-heading">
            <h2 id="ended-heading">{t["link.ended.heading"]}</h2>
            <p>{format(t["link.ended.body"], { payee })}</p>
          </section>
        ) : (
          <PayForm link={link} locale={locale} values={values} problems={problems} problem={problem} />
        )}
      </main>
    </PageFrame>
  );
}

function PayForm(p: {
  link: PaymentLinkView;
  locale: Locale;
  values: { amount: string; field: string };
  problems: PayerProblem[];
  problem: string;
}) {
  const { link, locale, values, problems } = p;
  const t = messages(locale);
  const money = (a: string) => formatMoney(a, link.currency, locale);
  const text = (q: PayerProblem) => {
    switch (q.kind) {
      case "amountFormat":
        return t["link.error.amountFormat"];
      case "amountRange":
        return format(t["link.error.amountRange"], { min: money(q.min), max: money(q.max) });
      case "fieldRequired":
        return format(t["link.error.fieldRequired"], { label: q.label });
      case "fieldTooLong":
        return format(t["link.error.fieldTooLong"], { label: q.label, max: String(q.max) });
    }
  };
  const errorOf = (path: PayerProblem["path"]) => problems.find((q) => q.path === path);
  const amountError = errorOf("amount");
  const fieldError = errorOf("field");
  const busy = p.problem === "payment_link_busy";
  const limited = p.problem === "rate_limited";
  return (
    <form className="card stack" method="post" action={`/pay/${link.slug}/start`} noValidate>
      {link.description && <p>{link.description}</p>}
      {busy && (
        <div className="alert alert-warning" role="alert">
          <p>
            <strong>{t["link.busy.heading"]}</strong>
          </p>
          <p>{t["link.busy.body"]}</p>
        </div>
      )}
      {limited && (
        <div className="alert alert-warning" role="alert">
          <p>{t["apiError.rate_limited"]}</p>
        </div>
      )}
      {problems.length > 0 && (
        <div className="alert alert-error" role="alert">
          <p>
            <strong>{t["link.errorsHeading"]}</strong>
          </p>
          <ul>
            {problems.map((q) => (
              <li key={q.path}>
                <a href={`#link-${q.path}`}>{text(q)}</a>
              </li>
            ))}
          </ul>
        </div>
      )}
      <input type="hidden" name="lang" value={locale} />
      {link.payerAmount ? (
        <div className="field">
          <label htmlFor="link-amount">{format(t["link.amount"], { currency: link.currency })}</label>
          <p className="hint" id="link-amount-hint">
            {format(t["link.amountRange"], { min: money(link.payerAmount.min), max: money(link.payerAmount.max) })}
          </p>
          <input
            id="link-amount"
            name="amount"
            type="text"
            inputMode="decimal"
            autoComplete="off"
            required
            defaultValue={values.amount || link.payerAmount.suggested || ""}
            aria-invalid={amountError ? true : undefined}
            aria-describedby={amountError ? "link-amount-hint link-amount-error" : "link-amount-hint"}
          />
          {amountError && (
            <p className="field-error" id="link-amount-error">
              {text(amountError)}
            </p>
          )}
        </div>
      ) : (
        <dl className="summary-list">
          <dt>{t["link.fixedAmount"]}</dt>
          <dd className="summary-total">{money(link.amount!)}</dd>
        </dl>
      )}
      {link.payerField && (
        <div className="field">
          <label htmlFor="link-field">
            {link.payerField.required
              ? link.payerField.label
              : format(t["link.optional"], { label: link.payerField.label })}
          </label>
          <input
            id="link-field"
            name="field"
            type="text"
            autoComplete="off"
            required={link.payerField.required}
            defaultValue={values.field}
            aria-invalid={fieldError ? true : undefined}
            aria-describedby={fieldError ? "link-field-error" : undefined}
          />
          {fieldError && (
            <p className="field-error" id="link-field-error">
              {text(fieldError)}
            </p>
          )}
        </div>
      )}
      <button type="submit" className="btn btn-primary btn-block">
        {t["link.submit"]}
      </button>
    </form>
  );
}
