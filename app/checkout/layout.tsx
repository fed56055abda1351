import type { ReactNode } from "react";
import { QueryProvider } from "@/components/query/QueryProvider";

/** The payer's pages share one QueryClient per tab: the bank lists and the checkout's status. */
export default function PayerLayout({ children }: { children: ReactNode }) {
  return <QueryProvider>{children}</QueryProvider>;
}
