import type { Metadata } from "next";
import type { ReactNode } from "react";
import Link from "next/link";
import { notFound } from "next/navigation";
import { AutoRefresh } from "@/components/backoffice/AutoRefresh";
import { bankNames } from "@/components/backoffice/bank-names";
import { DataTable } from "@/components/backoffice/DataTable";
import { METHOD_LABELS, STATUS_LABELS, formatDateTime, outcomeLabel, sourceLabel, statusGroupLabel } from "@/components/backoffice/format";
import { RefundForm } from "@/components/backoffice/RefundForm";
import { requireStaff } from "@/components/backoffice/require-staff";
import { StaffFrame } from "@/components/backoffice/StaffFrame";
import { StatusBadge } from "@/components/backoffice/StatusBadge";
import styles from "@/components/backoffice/backoffice.module.css";
import { formatMoney } from "@/components/ui/money";
import { appContext } from "@/lib/checkout/app-context";
import { checkoutDetailForStaff } from "@/lib/checkout/backoffice";
import { REFUND_CURRENCIES } from "@/lib/checkout/refunds";
import type { CheckoutStatus } from "@/lib/checkout/types";

export const dynamic = "force-dynamic";

// A fixed title: the reference is shown only to a signed-in page, never in unchecked metadata.
export const metadata: Metadata = { title: "Checkout", robots: { index: false, follow: false } };

const statusWord = (s: string | null) => (s === null ? "New" : (STATUS_LABELS[s as CheckoutStatus] ?? s));

function Time({ iso, seconds = true }: { iso: string; seconds?: boolean }) {
  return (
    <time dateTime={iso} className={styles.nowrap}>
      {formatDateTime(iso, seconds)}
    </time>
  );
}

const None = () => <span className="muted">None</span>;

/** A provider or system code in monospace, or "None". */
const Code = ({ value }: { value: string | null | undefined }) => (value ? <span className={styles.code}>{value}</span> : <None />);

/** One card of the page, named by its heading. */
function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="card" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`} className={styles.sectionHeading}>
        {title}
      </h2>
      {children}
    </section>
  );
}

export default async function CheckoutDetailPage({ params }: { params: Promise<{ checkoutId: string }> }) {
  await requireStaff();
  const { checkoutId } = await params;
  if (!/^[\w-]{1,64}$/.test(checkoutId)) notFound();
  const detail = await checkoutDetailForStaff(checkoutId, await appContext());
  if (!detail) notFound();
  const { checkout, attempts, timeline, webhooks, notifications, refunds, refundable, duplicates } = detail;
  const names = await bankNames(attempts.map((a) => a.bankId));
  const money = (amount: string) => formatMoney(amount, checkout.currency);
  const refundsMoving = refunds.some((r) => r.status === "started" || r.status === "pending");

  return (
    <StaffFrame>
      <AutoRefresh active={refundsMoving || checkout.status === "processing"} />
      <header className={styles.pageHeader}>
        <p className={styles.breadcrumb}>
          <Link href="/backoffice">All checkouts</Link>
        </p>
        <h1>Checkout {checkout.reference}</h1>
        <p>Times are in UTC.</p>
      </header>

      <Section id="summary" title="Summary">
        <dl className={styles.summaryGrid}>
          <dt>Status</dt>
          <dd>
            <StatusBadge status={checkout.status} />
          </dd>
          <dt>Amount</dt>
          <dd>{money(checkout.amount)}</dd>
          <dt>Currency</dt>
          <dd>{checkout.currency}</dd>
          <dt>Reference</dt>
          <dd>{checkout.reference}</dd>
          <dt>Description</dt>
          <dd>{checkout.description}</dd>
          <dt>Checkout id</dt>
          <dd className={styles.code}>{checkout.id}</dd>
          <dt>Created</dt>
          <dd>
            <Time iso={checkout.createdAt} />
          </dd>
          <dt>Expires</dt>
          <dd>
            <Time iso={checkout.expiresAt} />
          </dd>
          <dt>Notify URL</dt>
          <dd className={styles.code}>{detail.notifyUrl ?? <None />}</dd>
          <dt>Return URL</dt>
          <dd className={styles.code}>{checkout.returnUrl}</dd>
        </dl>
      </Section>

      {duplicates.length > 0 && (
        <Section id="duplicates" title="Duplicate payments">
          <p className="alert alert-error">
            The payer paid this order {duplicates.length + 1} times: the bank completed {duplicates.length === 1 ? "a payment" : "payments"} after another had
            already paid it. The merchant was notified (<span className={styles.code}>checkout.duplicate_payment</span>). Give the money back:
          </p>
          {duplicates.map((d) => (
            <RefundForm
              key={d.attemptId}
              checkoutId={checkout.id}
              attemptId={d.attemptId}
              title={`Duplicate payment ${d.providerPaymentId ?? d.attemptId}, completed ${formatDateTime(d.completedAt, true)}`}
              refundable={d.refundable}
              refundableText={money(d.refundable)}
              currency={checkout.currency}
            />
          ))}
        </Section>
      )}

      <Section id="refunds" title="Refunds">
        <DataTable
          caption="Refunds of this checkout"
          empty="No refunds."
          head={["Created", "Amount", "Status", "Reason", "Note"]}
          numeric={[1]}
          rows={refunds.map((r) => ({
            key: r.id,
            cells: [
              <Time key="t" iso={r.createdAt} />,
              money(r.amount),
              statusGroupLabel(r.status),
              r.reason ?? <None key="n" />,
              r.failureReason ? <span className={styles.code}>{r.failureReason}</span> : "",
            ],
          }))}
        />
        {checkout.status !== "paid" ? (
          <p className="muted">Only a paid checkout can be refunded.</p>
        ) : !REFUND_CURRENCIES.includes(checkout.currency) ? (
          <p className="muted">Refunds are only possible in {REFUND_CURRENCIES.join(" or ")}.</p>
        ) : (
          <RefundForm checkoutId={checkout.id} refundable={refundable} refundableText={money(refundable)} currency={checkout.currency} />
        )}
      </Section>

      <Section id="timeline" title="Status timeline">
        <DataTable
          caption="Status changes, oldest first, with where each came from"
          empty="No status changes yet."
          head={["Time", "Change", "Provider status", "Source"]}
          rows={timeline.map((e, i) => ({
            key: String(i),
            cells: [
              <Time key="t" iso={e.at} />,
              <span key="c" className={styles.nowrap}>
                {statusWord(e.from)}
                <span aria-hidden="true"> → </span>
                <span className="visually-hidden"> to </span>
                {statusWord(e.to)}
              </span>,
              <Code key="p" value={e.providerStatus} />,
              sourceLabel(e.source),
            ],
          }))}
        />
      </Section>

      <Section id="attempts" title="Payment attempts">
        <DataTable
          caption="Payment attempts, oldest first"
          empty="The payer has not started a payment yet."
          head={["Started", "Method", "Bank", "Provider payment id", "Status group", "Provider status", "Failure reason", "Abandoned", "Duplicate"]}
          rows={attempts.map((a) => ({
            key: a.id,
            cells: [
              <Time key="t" iso={a.createdAt} />,
              METHOD_LABELS[a.method] ?? a.method,
              a.bankId ? (names.get(a.bankId) ?? a.bankId) : <span className="muted">Chosen at the provider</span>,
              <Code key="i" value={a.providerPaymentId} />,
              statusGroupLabel(a.statusGroup),
              <Code key="p" value={a.providerStatus} />,
              <Code key="f" value={[a.failureReason, ...a.errorCodes].filter(Boolean).join(", ")} />,
              a.abandoned ? "Yes" : "No",
              a.duplicate ? <strong key="d">Yes, refund it</strong> : "No",
            ],
          }))}
        />
      </Section>

      <Section id="webhooks" title="Webhook events">
        <DataTable
          caption="Webhooks received from the payment provider for this checkout's payments"
          empty="No webhooks received."
          head={["Received", "Type", "Signature", "Outcome"]}
          rows={webhooks.map((w, i) => ({
            key: String(i),
            cells: [<Time key="t" iso={w.at} />, w.type ?? <None key="n" />, w.signatureValid ? "Valid" : "Invalid", outcomeLabel(w.outcome)],
          }))}
        />
      </Section>

      <Section id="notifications" title="Notifications">
        <DataTable
          caption="Notifications sent to the merchant's notify URL"
          empty={detail.notifyUrl ? "No notifications yet." : "No notify URL was given, so no notifications are sent."}
          head={["Event", "Attempts", "Delivered", "Last error"]}
          numeric={[1]}
          rows={notifications.map((n, i) => ({
            key: String(i),
            cells: [
              <span key="e" className={styles.code}>
                {n.event}
              </span>,
              String(n.attempts),
              n.deliveredAt ? <Time key="t" iso={n.deliveredAt} /> : "Not yet",
              !n.deliveredAt && (n.lastError || n.lastStatus) ? [n.lastStatus ? `HTTP ${n.lastStatus}` : null, n.lastError].filter(Boolean).join(": ") : <None key="n" />,
            ],
          }))}
        />
      </Section>
    </StaffFrame>
  );
}
