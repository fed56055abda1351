import type { Locale } from "@/lib/checkout/types";
import { LangEffect } from "./LangEffect";

/**
 * Sets `<html lang>` to the page's language. The root layout cannot know it (layouts get no search
 * params, and the checkout's own locale is only known to the page), so it renders the site's
 * default and each translated page corrects it here: an inline script that runs while the HTML is
 * parsed, before anything is painted or read out, plus an effect for client-side navigations.
 * The page's content is also wrapped in an element with the same `lang`, so even without
 * JavaScript every text is marked with its language. (The title is the page's own: localTitle.)
 */
export function DocumentLang({ locale }: { locale: Locale }) {
  return (
    <>
      <script dangerouslySetInnerHTML={{ __html: `document.documentElement.lang=${JSON.stringify(locale)};` }} />
      <LangEffect locale={locale} />
    </>
  );
}
