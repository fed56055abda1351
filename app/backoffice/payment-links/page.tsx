import type { Metadata } from "next";
import Link from "next/link";
import { DataTable } from "@/components/backoffice/DataTable";
import { Time } from "@/components/backoffice/detail-parts";
import { PaymentLinkForm } from "@/components/backoffice/PaymentLinkForm";
import { LinkStatusBadge, linkAmountText } from "@/components/backoffice/PaymentLinkParts";
import { requireStaff } from "@/components/backoffice/require-staff";
import { StaffFrame } from "@/components/backoffice/StaffFrame";
import styles from "@/components/backoffice/backoffice.module.css";
import { formatMoney } from "@/components/ui/money";
import { appContext } from "@/lib/checkout/app-context";
import { pageNumber } from "@/lib/checkout/backoffice-filter";
import { paymentLinkPage } from "@/lib/payment-links/links";
import { allows } from "@/lib/staff/roles";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Payment links", robots: { index: false, follow: false } };

/** Every signed-in person sees the links, a page at a time as the API gives them; support and up make them here. */
export default async function PaymentLinksPage({
  searchParams,
}: {
  searchParams: Promise<{ page?: string | string[] }>;
}) {
  const member = await requireStaff("payment_links.view");
  const asked = pageNumber.safeParse((await searchParams).page);
  const page = asked.success ? asked.data : 1;
  const { items: links, hasMore } = await paymentLinkPage(await appContext(), page);
  return (
    <StaffFrame member={member}>
      <header className={styles.pageHeader}>
        <h1>Payment links</h1>
        <p>
          A page anyone with its address can pay, with no call from your backend: send it by email, print its QR code on
          an invoice or at a counter. Each payment is a checkout of its own. Times are in UTC.
        </p>
      </header>
      {allows(member.role, "payment_links.manage") && <PaymentLinkForm />}
      <section className="card" aria-labelledby="links-heading">
        <h2 id="links-heading">Links</h2>
        <DataTable
          caption="Payment links, newest first"
          empty="No payment links yet."
          head={["Title", "Amount", "Status", "Payments", "Total paid", "Created"]}
          numeric={[3, 4]}
          rows={links.map((l) => ({
            key: l.id,
            cells: [
              <Link key="t" href={`/backoffice/payment-links/${l.id}`}>
                {l.title}
              </Link>,
              linkAmountText(l),
              <LinkStatusBadge key="s" status={l.status} />,
              l.payments,
              formatMoney(l.totalPaid, l.currency),
              <Time key="c" iso={l.createdAt} seconds={false} />,
            ],
          }))}
        />
        {(page > 1 || hasMore) && (
          <nav className={styles.pagination} aria-label="Pages">
            {page > 1 ? <Link href={`/backoffice/payment-links?page=${page - 1}`}>Previous page</Link> : <span />}
            {hasMore ? <Link href={`/backoffice/payment-links?page=${page + 1}`}>Next page</Link> : <span />}
          </nav>
        )}
      </section>
    </StaffFrame>
  );
}
