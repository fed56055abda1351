"use client";

import "./globals.css";
import { ErrorView } from "@/components/errors/ErrorView";

/** The root layout itself failed: this replaces it, so it brings its own html and body. */
export default function GlobalError() {
  return (
    <html lang="en">
      <body>
        <ErrorView onRetry={() => location.reload()} />
      </body>
    </html>
  );
}
