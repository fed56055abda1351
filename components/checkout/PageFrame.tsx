import type { ReactNode } from "react";
import { DocumentLang } from "@/components/i18n/DocumentLang";
import { LanguageSwitcher } from "@/components/i18n/LanguageSwitcher";
import { LOCALES, LOCALE_NAMES, messages, type Locale } from "@/lib/i18n";

interface PageFrameProps {
  locale: Locale;
  /** This page's path, for the language links (`?lang=xx` is added). */
  path: string;
  /** Other query parameters the language links keep. */
  query?: Record<string, string>;
  /** The provider project is a test project. */
  sandbox: boolean;
  /** Where the footer's accessibility statement link goes; null on the statement itself. */
  accessibilityHref: string | null;
  children: ReactNode;
}

function withQuery(path: string, query: Record<string, string>): string {
  const search = new URLSearchParams(query).toString();
  return search ? `${path}?${search}` : path;
}

/**
 * What every payer-facing page shares: the page language (on the wrapper and `<html>`), the test
 * project banner, and a footer with the language switch and the accessibility statement.
 */
export function PageFrame({ locale, path, query = {}, sandbox, accessibilityHref, children }: PageFrameProps) {
  const t = messages(locale);
  return (
    <div lang={locale} className="frame">
      <DocumentLang locale={locale} />
      {sandbox && (
        <header className="test-banner">
          <p>
            <strong>{t["common.testBannerLabel"]}</strong> · {t["common.testBanner"]}
          </p>
        </header>
      )}
      {children}
      <footer className="page-footer">
        <LanguageSwitcher
          current={locale}
          label={t["common.language"]}
          options={LOCALES.map((l) => ({
            locale: l,
            name: LOCALE_NAMES[l],
            href: withQuery(path, { ...query, lang: l }),
          }))}
        />
        {accessibilityHref && (
          <p className="small">
            <a href={accessibilityHref}>{t["common.accessibility"]}</a>
          </p>
        )}
      </footer>
    </div>
  );
}
