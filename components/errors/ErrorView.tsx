"use client";

import { useEffect, useEffectEvent, useRef, useSyncExternalStore } from "react";
import { AWAY_RETRY_AFTER_S } from "@/lib/http/away-page";
import { errorTextFor } from "@/lib/i18n/error-text";

const noSubscription = () => () => {};

/** How long the page waits before trying again when its database did not answer (the text says 5 seconds). */
export const AWAY_RETRY_MS = AWAY_RETRY_AFTER_S * 1000;

/**
 * What error.tsx and global-error.tsx show: in the page's language (the document's, which the
 * checkout sets from its locale), that no money moved because of it, Try again and Go back. Focus
 * moves to the heading, so a screen reader hears what happened. When the page's database did not
 * answer (`away`), it says the service is back in a moment and tries again by itself.
 */
export function ErrorView({
  onRetry,
  away = false,
  lang,
  retryHref,
}: {
  onRetry: () => void;
  away?: boolean;
  /** The page's language when the server knows it; else the document's. */
  lang?: string;
  /** Try again as a link to this address, which works before (or without) the page's code. */
  retryHref?: string;
}) {
  const documentLang = useSyncExternalStore(
    noSubscription,
    () => document.documentElement.lang,
    () => "en",
  );
  const text = errorTextFor(lang ?? documentLang);
  // Only the page's code tries again by itself: without it, the page must not say it will.
  const running = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  // The database is back within seconds after a restart: the page tries again itself, once per
  // showing (a failure again shows this anew), so a payer back from the bank sees the outcome.
  const retry = useEffectEvent(onRetry);
  useEffect(() => {
    if (!away) return;
    const timer = setTimeout(retry, AWAY_RETRY_MS);
    return () => clearTimeout(timer);
  }, [away]);
  return (
    <main className="page" lang={text.lang}>
      <div className="card not-found" role="alert">
        <h1 ref={heading} tabIndex={-1}>
          {away ? text.awayTitle : text.title}
        </h1>
        <p className="muted">{away ? text.awayBody : text.body}</p>
        {away && running && <p>{text.awayRetry}</p>}
        <div className="actions" style={{ justifyContent: "center" }}>
          {retryHref === undefined ? (
            <button type="button" className="btn btn-primary" onClick={onRetry}>
              {text.retry}
            </button>
          ) : (
            <a className="btn btn-primary" href={retryHref}>
              {text.retry}
            </a>
          )}
          <button type="button" className="btn btn-secondary" onClick={() => history.back()}>
            {text.back}
          </button>
        </div>
      </div>
    </main>
  );
}
