import { DocumentLang } from "@/components/i18n/DocumentLang";
import { LanguageSwitcher } from "@/components/i18n/LanguageSwitcher";
import { LOCALES, LOCALE_NAMES, type Locale } from "@/lib/i18n";
import { staffMessages } from "@/lib/i18n/staff-messages";

/** The sign-in pages' language: `<html lang>` set to it, and links to the other three. */
export function StaffLanguages({ locale, path }: { locale: Locale; path: string }) {
  return (
    <>
      <DocumentLang locale={locale} />
      <LanguageSwitcher
        current={locale}
        label={staffMessages(locale)["common.language"]}
        options={LOCALES.map((l) => ({ locale: l, name: LOCALE_NAMES[l], href: `${path}?lang=${l}` }))}
      />
    </>
  );
}
