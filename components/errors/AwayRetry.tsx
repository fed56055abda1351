"use client";

import { ErrorView } from "./ErrorView";

/** The error page for a database away, trying again by asking for the page's own address afresh. */
export function AwayRetry({ lang, address }: { lang: string; address: string }) {
  return <ErrorView away lang={lang} retryHref={address} onRetry={() => location.reload()} />;
}
