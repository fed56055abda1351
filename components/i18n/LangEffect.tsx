"use client";

import { useEffect } from "react";
import type { Locale } from "@/lib/checkout/types";

/**
 * Keeps `<html lang>` on the page's language after client-side navigations, and gives it back to
 * the root layout's default when the page goes away.
 */
export function LangEffect({ locale }: { locale: Locale }) {
  useEffect(() => {
    const root = document.documentElement;
    root.lang = locale;
    return () => {
      root.lang = root.dataset.defaultLang ?? "en";
    };
  }, [locale]);
  return null;
}
