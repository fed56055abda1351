"use client";

import { useEffect } from "react";
import type { Locale } from "@/lib/checkout/types";
import { keepTitle, withSiteName } from "./page-title";

/**
 * Keeps `<html lang>` on the page's language after client-side navigations, and gives it back to
 * the root layout's default when the page goes away; and the site's name in the title in it.
 */
export function LangEffect({ locale, siteName }: { locale: Locale; siteName: string }) {
  useEffect(() => {
    const root = document.documentElement;
    root.lang = locale;
    const release = keepTitle((title) => withSiteName(title, siteName));
    return () => {
      release();
      root.lang = root.dataset.defaultLang ?? "en";
    };
  }, [locale, siteName]);
  return null;
}
