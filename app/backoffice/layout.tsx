import type { Metadata } from "next";
import type { ReactNode } from "react";

// Staff pages are never indexed; each page checks the session itself (components/backoffice/require-staff).
export const metadata: Metadata = {
  title: { default: "Back office", template: "%s · Back office" },
  robots: { index: false, follow: false, nocache: true },
};

export default function BackofficeLayout({ children }: { children: ReactNode }) {
  return children;
}
