"use client";

import "./globals.css";
import { lazy, Suspense } from "react";

// Its own lazy load rather than error.tsx's wrapper: both sit on every page, and sharing would
// put the same code in two first-load chunks.
const ErrorView = lazy(() => import("@/components/errors/ErrorView").then((m) => ({ default: m.ErrorView })));

/** The root layout itself failed: this replaces it, so it brings its own html and body. */
export default function GlobalError() {
  return (
    <html lang="en">
      <body>
        <Suspense fallback={<h1>Something went wrong</h1>}>
          <ErrorView onRetry={() => location.reload()} />
        </Suspense>
      </body>
    </html>
  );
}
