"use client";

import { lazy, Suspense } from "react";

// The full error page (four languages) loads only when an error happens: error.tsx and
// global-error.tsx sit on every page, and the payer's checkout carries a JavaScript budget.
const ErrorView = lazy(() => import("./ErrorView").then((m) => ({ default: m.ErrorView })));

/** The error page, with a plain one in English while (or if) the full one cannot load. */
export function LazyErrorView({ onRetry, away }: { onRetry: () => void; away?: boolean }) {
  return (
    <Suspense
      fallback={
        <main className="page">
          <div className="card not-found" role="alert">
            <h1>Something went wrong</h1>
            <button type="button" className="btn btn-primary" onClick={onRetry}>
              Try again
            </button>
          </div>
        </main>
      }
    >
      <ErrorView onRetry={onRetry} away={away} />
    </Suspense>
  );
}
