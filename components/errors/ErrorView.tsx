"use client";

import { useEffect, useRef, useSyncExternalStore } from "react";
import { errorTextFor } from "@/lib/i18n/error-text";

const noSubscription = () => () => {};

/**
 * What error.tsx and global-error.tsx show: in the page's language (the document's, which the
 * checkout sets from its locale), that no money moved because of it, Try again and Go back. Focus
 * moves to the heading, so a screen reader hears what happened.
 */
export function ErrorView({ onRetry }: { onRetry: () => void }) {
  const lang = useSyncExternalStore(
    noSubscription,
    () => document.documentElement.lang,
    () => "en",
  );
  const text = errorTextFor(lang);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <main className="page" lang={text.lang}>
      <div className="card not-found" role="alert">
        <h1 ref={heading} tabIndex={-1}>
          {text.title}
        </h1>
        <p className="muted">{text.body}</p>
        <div className="actions" style={{ justifyContent: "center" }}>
          <button type="button" className="btn btn-primary" onClick={onRetry}>
            {text.retry}
          </button>
          <button type="button" className="btn btn-secondary" onClick={() => history.back()}>
            {text.back}
          </button>
        </div>
      </div>
    </main>
  );
}
