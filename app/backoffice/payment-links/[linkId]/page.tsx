import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { DataTable } from "@/components/backoffice/DataTable";
import { None, Section, Time } from "@/components/backoffice/detail-parts";
import { PaymentLinkDeactivate } from "@/components/backoffice/PaymentLinkDeactivate";
import { LinkStatusBadge, linkAmountText } from "@/components/backoffice/PaymentLinkParts";
import { requireStaff } from "@/components/backoffice/require-staff";
import { ShownOnce } from "@/components/backoffice/shown-once";
import { StaffFrame } from "@/components/backoffice/StaffFrame";
import { StatusBadge } from "@/components/backoffice/StatusBadge";
import styles from "@/components/backoffice/backoffice.module.css";
import own from "@/components/backoffice/payment-links.module.css";
import { formatMoney } from "@/components/ui/money";
import { appContext } from "@/lib/checkout/app-context";
import { getPaymentLink, linkCheckouts } from "@/lib/payment-links/links";
import { qrSvg } from "@/lib/payment-links/qr";
import { allows } from "@/lib/staff/roles";

export const dynamic = "force-dynamic";

// A fixed title: the link's own title is shown only to a signed-in page, never in unchecked metadata.
export const metadata: Metadata = { title: "Payment link", robots: { index: false, follow: false } };

export default async function PaymentLinkPage({ params }: { params: Promise<{ linkId: string }> }) {
  const member = await requireStaff("payment_links.view");
  const { linkId } = await params;
  if (!/^plink_[A-Za-z0-9_-]{16}$/.test(linkId)) notFound();
  const ctx = await appContext();
  const link = await getPaymentLink(ctx, linkId);
  if (!link) notFound();
  const [checkouts, qr] = await Promise.all([linkCheckouts(ctx.db, link.id), qrSvg(link.url)]);
  // The link's own public QR address (app/pay/[slug]/qr): the code holds nothing the link does not.
  const qrFile = `/pay/${link.slug}/qr`;
  const payerField = link.payerField?.label;
  return (
    <StaffFrame member={member}>
      <header className={styles.pageHeader}>
        <p className={styles.breadcrumb}>
          <Link href="/backoffice/payment-links">Payment links</Link>
        </p>
        <h1>{link.title}</h1>
        <p>
          <LinkStatusBadge status={link.status} /> {link.description}
        </p>
      </header>

      <Section id="share" title="Share">
        <ShownOnce label="Link address" value={link.url} copy="Copy link" />
        {/* The library's markup: the code's squares as path data. */}
        <div
          className={own.qr}
          role="img"
          aria-label={`QR code of the link ${link.url}`}
          dangerouslySetInnerHTML={{ __html: qr }}
        />
        <p className={own.downloads}>
          <a href={`${qrFile}?format=svg&download=1`} download>
            Download SVG<span className="visually-hidden"> of the QR code</span>
          </a>
          <a href={`${qrFile}?format=png&download=1`} download>
            Download PNG<span className="visually-hidden"> of the QR code</span>
          </a>
        </p>
      </Section>

      <Section id="details" title="Details">
        <dl className={styles.summaryGrid}>
          <dt>Amount</dt>
          <dd>
            {linkAmountText(link)}
            {link.payerAmount?.suggested && `, ${formatMoney(link.payerAmount.suggested, link.currency)} suggested`}
          </dd>
          <dt>Reference prefix</dt>
          <dd className={styles.code}>{link.referencePrefix}</dd>
          <dt>Payer field</dt>
          <dd>
            {link.payerField ? (
              `${link.payerField.label} (${link.payerField.required ? "required" : "optional"})`
            ) : (
              <None />
            )}
          </dd>
          <dt>Ends</dt>
          <dd>{link.endsAt ? <Time iso={link.endsAt} seconds={false} /> : <None />}</dd>
          <dt>Most payments</dt>
          <dd>{link.maxPayments ?? <None />}</dd>
          <dt>Payments</dt>
          <dd>{link.payments}</dd>
          <dt>Total paid</dt>
          <dd>{formatMoney(link.totalPaid, link.currency)}</dd>
          <dt>Created</dt>
          <dd>
            <Time iso={link.createdAt} />
          </dd>
          {link.deactivatedAt && (
            <>
              <dt>Deactivated</dt>
              <dd>
                <Time iso={link.deactivatedAt} />
              </dd>
            </>
          )}
        </dl>
        {allows(member.role, "payment_links.manage") && (
          <PaymentLinkDeactivate linkId={link.id} deactivated={link.status === "deactivated"} />
        )}
      </Section>

      <Section id="checkouts" title="Checkouts from this link">
        <DataTable
          caption="Checkouts made from this link, newest first"
          empty="No checkouts from this link yet."
          head={["Reference", "Amount", "Status", ...(payerField ? [payerField] : []), "Created"]}
          numeric={[1]}
          rows={checkouts.map((c) => ({
            key: c.id,
            cells: [
              <Link key="r" href={`/backoffice/checkouts/${encodeURIComponent(c.id)}`}>
                {c.reference}
              </Link>,
              formatMoney(c.amount, c.currency),
              <StatusBadge key="s" status={c.status} />,
              ...(payerField ? [c.metadata[payerField] ?? <None key="n" />] : []),
              <Time key="c" iso={c.createdAt.toISOString()} />,
            ],
          }))}
        />
      </Section>
    </StaffFrame>
  );
}
