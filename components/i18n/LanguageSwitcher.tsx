"use client";

import type { Locale } from "@/lib/checkout/types";

export interface LanguageOption {
  locale: Locale;
  /** The language in its own name ("Lietuvių"). */
  name: string;
  href: string;
}

const YEAR_SECONDS = 365 * 24 * 60 * 60;

/**
 * Plain links to `?lang=xx` (they work without JavaScript). A click also remembers the choice in a
 * cookie, so the landing page after the bank, which has no `?lang=`, speaks the same language.
 */
export function LanguageSwitcher({ current, label, options }: { current: Locale; label: string; options: LanguageOption[] }) {
  return (
    <nav aria-label={label} className="lang-switch">
      <ul>
        {options.map((option) => (
          <li key={option.locale}>
            <a
              href={option.href}
              lang={option.locale}
              hrefLang={option.locale}
              aria-current={option.locale === current ? "true" : undefined}
              onClick={() => {
                document.cookie = `lang=${option.locale}; path=/; max-age=${YEAR_SECONDS}; samesite=lax`;
              }}
            >
              {option.name}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
