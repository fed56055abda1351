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
import { listPaymentLinks } from "@/lib/payment-links/links";
import { allows } from "@/lib/staff/roles";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Payment links", robots: { index: false, follow: false } };

/** Every signed-in person sees the links; support and up make them here. */
export default async function PaymentLinksPage() {
  const member = await requireStaff("payment_links.view");
  const links = await listPaymentLinks(await appContext());
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
      </section>
    </StaffFrame>
  );
}
