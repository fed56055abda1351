import type { Metadata } from "next";
import type { ReactNode } from "react";
import { QueryIsland } from "@/components/query/QueryIsland";

// Staff pages are never indexed; each page checks the session itself (components/backoffice/require-staff).
export const metadata: Metadata = {
  title: { default: "Back office", template: "%s · Back office" },
  robots: { index: false, follow: false, nocache: true },
};

/**
 * The staff pages share one QueryClient per tab (the refund mutation and what it refreshes): no
 * first-load budget here, so the whole back office is one island.
 */
export default function BackofficeLayout({ children }: { children: ReactNode }) {
  return <QueryIsland>{children}</QueryIsland>;
}
