import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import { TITLE_SEPARATOR } from "@/components/i18n/page-title";
import { Stylesheet } from "@/components/ui/Stylesheet";
import { messages } from "@/lib/i18n";

const SITE_NAME = messages("en")["meta.siteName"];

export const metadata: Metadata = {
  // In English; a translated page gives its whole title, the site's name in its language (localTitle).
  title: { default: SITE_NAME, template: `%s${TITLE_SEPARATOR}${SITE_NAME}` },
  // English, the site's default; the payer's pages give theirs in the page's language.
  description: messages("en")["meta.description"],
  icons: { icon: "/favicon.svg" },
};

export const viewport: Viewport = {
  width: "device-width",
  initialScale: 1,
  themeColor: "#f5f7fa",
};

/**
 * `<html lang>`: the root layout cannot know a page's language (layouts get no search params, and
 * the checkout's own locale is known only to its page), and most pages outside the checkout (the
 * demo shop, the back office) are in English. So it renders English, the site's default, and each
 * translated page sets the real language with <DocumentLang> (an inline script run while the HTML
 * is parsed, before first paint, plus a `lang` on the page's own wrapper for no-script readers).
 * suppressHydrationWarning: that correction is expected to differ from the server's attribute.
 *
 * The stylesheet is a `<style>` of our own, not a CSS import: see components/ui/Stylesheet.tsx.
 *
 * No global client providers: each page brings only the client code it needs, which keeps the
 * checkout's first-load JavaScript within its budget.
 */
export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en" data-default-lang="en" suppressHydrationWarning>
      <head>
        <Stylesheet />
      </head>
      <body>{children}</body>
    </html>
  );
}
