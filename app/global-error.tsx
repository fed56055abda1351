"use client";

import { lazy, Suspense } from "react";

// Its own lazy load rather than error.tsx's wrapper: both sit on every page, and sharing would
// put the same code in two first-load chunks.
const ErrorView = lazy(() => import("@/components/errors/ErrorView").then((m) => ({ default: m.ErrorView })));

/**
 * The root layout itself failed: this replaces it, so it brings its own html and body, and the
 * stylesheet as a file. The layout is what puts the stylesheet into a page
 * (components/ui/Stylesheet.tsx), and a CSS import here would put it into every page's RSC data,
 * for this page's sake.
 */
export default function GlobalError() {
  return (
    <html lang="en">
      <body>
        {/* eslint-disable-next-line @next/next/no-css-tags -- there is no CSS import to use: see above */}
        <link rel="stylesheet" href="/stylesheet.css" precedence="default" />
        <Suspense fallback={<h1>Something went wrong</h1>}>
          <ErrorView onRetry={() => location.reload()} />
        </Suspense>
      </body>
    </html>
  );
}
