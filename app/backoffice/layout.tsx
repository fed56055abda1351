import type { Metadata } from "next";
import type { ReactNode } from "react";
import { QueryProvider } from "@/components/query/QueryProvider";

// Staff pages are never indexed; each page checks the session itself (components/backoffice/require-staff).
export const metadata: Metadata = {
  title: { default: "Back office", template: "%s · Back office" },
  robots: { index: false, follow: false, nocache: true },
};

/** The staff pages share one QueryClient per tab (the refund mutation and what it refreshes). */
export default function BackofficeLayout({ children }: { children: ReactNode }) {
  return <QueryProvider>{children}</QueryProvider>;
}
