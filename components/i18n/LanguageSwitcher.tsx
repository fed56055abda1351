import type { Locale } from "@/lib/checkout/types";

export interface LanguageOption {
  locale: Locale;
  /** The language in its own name ("Lietuvių"). */
  name: string;
  href: string;
}

/**
 * Plain links to `?lang=xx`: no script. The server remembers the choice in a cookie when it sees
 * `?lang=` (proxy.ts), so the landing page after the bank, which has no `?lang=`, speaks it too.
 */
export function LanguageSwitcher({
  current,
  label,
  options,
}: {
  current: Locale;
  label: string;
  options: LanguageOption[];
}) {
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
            >
              {option.name}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
