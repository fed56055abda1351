"use client";

import { useRouter } from "next/navigation";
import { startTransition } from "react";
import { LazyErrorView } from "@/components/errors/lazy-error-view";

/** A page that failed to render, under the root layout. Try again renders it afresh from the server. */
export default function PageError({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const router = useRouter();
  const retry = () =>
    startTransition(() => {
      router.refresh();
      reset();
    });
  return <LazyErrorView onRetry={retry} />;
}
