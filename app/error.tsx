"use client";

import { useRouter } from "next/navigation";
import { startTransition } from "react";
import { LazyErrorView } from "@/components/errors/lazy-error-view";
import { DATABASE_AWAY_DIGEST } from "@/lib/db/unavailable";

/**
 * A page that failed to render, under the root layout. Try again renders it afresh from the server;
 * when the page's database did not answer, the page does so by itself (lib/db/unavailable.ts).
 */
export default function PageError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const router = useRouter();
  const retry = () =>
    startTransition(() => {
      router.refresh();
      reset();
    });
  return <LazyErrorView onRetry={retry} away={error.digest === DATABASE_AWAY_DIGEST} />;
}
