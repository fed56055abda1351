"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";

const EVERY_MS = 5_000;
const GIVE_UP_AFTER_MS = 3 * 60_000;

/**
 * While something on the page is still on its way (a refund waiting for the provider's webhook),
 * re-reads the page from the server now and then, so staff see the final status without reloading.
 * Form fields keep what was typed: a refresh re-renders, it does not remount.
 */
export function AutoRefresh({ active }: { active: boolean }) {
  const router = useRouter();
  useEffect(() => {
    if (!active) return;
    const started = Date.now();
    const timer = setInterval(() => {
      if (document.visibilityState !== "visible") return;
      if (Date.now() - started > GIVE_UP_AFTER_MS) {
        clearInterval(timer);
        return;
      }
      router.refresh();
    }, EVERY_MS);
    return () => clearInterval(timer);
  }, [active, router]);
  return null;
}
