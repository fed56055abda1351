"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { Fragment } from "react";
import type { StaffDetail } from "@/lib/checkout/contract";
import { REFUND_CURRENCIES } from "@/lib/checkout/money";
import { formatMoney } from "@/components/ui/money";
import { CancelCheckout } from "./CancelCheckout";
import { DataTable } from "./DataTable";
import { DetailHistory } from "./DetailHistory";
import { None, Section, Time } from "./detail-parts";
import { formatDateTime, REFUND_MADE_BY, statusGroupLabel } from "./format";
import { staffCheckoutQuery } from "./queries";
import { RefundForm } from "./RefundForm";
import { RefundRequests } from "./RefundRequests";
import { useMay } from "./staff-permissions";
import { StatusBadge } from "./StatusBadge";
import styles from "./backoffice.module.css";

/**
 * Still on its way: a refund waiting for the provider's webhook, a payment not yet settled, a
 * notification the outbox is still trying (one staff sent again shows when the merchant has it).
 */
const moving = (d: StaffDetail | undefined) =>
  !!d &&
  (d.checkout.status === "processing" ||
    d.refunds.some((r) => r.status === "started" || r.status === "pending") ||
    d.notifications.some((n) => n.deliveredAt === null && !n.givenUp));

/**
 * Read again every 5 s while something is moving, slower the longer it takes (10 s after a minute,
 * then 20 s, at most every minute), only while the page is visible; not at all once all is settled.
 */
export function refreshEveryMs(detail: StaffDetail | undefined, reads: number): number | false {
  if (!moving(detail)) return false;
  return 5_000 * Math.min(12, 2 ** Math.floor(reads / 12));
}

/**
 * One checkout as staff see it. The server's render is the first answer; the query reads the
 * checkout again while something is moving and after each refund, so staff see the final status
 * without reloading, and form fields keep what was typed.
 */
export function CheckoutDetail({ initial }: { initial: StaffDetail }) {
  const { data: detail } = useQuery({
    ...staffCheckoutQuery(initial.checkout.id),
    initialData: initial,
    refetchInterval: (query) => refreshEveryMs(query.state.data, query.state.dataUpdateCount),
  });
  const { checkout, refunds, refundable, duplicates } = detail;
  const mayCancel = useMay("checkouts.cancel");
  const mayRefund = useMay("refunds.create");
  const money = (amount: string) => formatMoney(amount, checkout.currency);

  return (
    <>
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
          {Object.entries(checkout.metadata).map(([key, value]) => (
            <Fragment key={key}>
              <dt>
                Metadata <span className={styles.code}>{key}</span>
              </dt>
              <dd className={styles.code}>{value}</dd>
            </Fragment>
          ))}
        </dl>
        {checkout.lineItems.length > 0 && (
          <table className={styles.table}>
            <caption>Items</caption>
            <thead>
              <tr>
                <th scope="col">Item</th>
                <th scope="col">Quantity</th>
                <th scope="col">Unit amount</th>
              </tr>
            </thead>
            <tbody>
              {checkout.lineItems.map((line, i) => (
                <tr key={i}>
                  <td>{line.name}</td>
                  <td>{line.quantity}</td>
                  <td>{money(line.unitAmount)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {mayCancel && <CancelCheckout checkoutId={checkout.id} status={checkout.status} />}
      </Section>

      {duplicates.length > 0 && (
        <Section id="duplicates" title="Duplicate payments">
          <p className="alert alert-error">
            The payer paid this order {duplicates.length + 1} times: the bank completed{" "}
            {duplicates.length === 1 ? "a payment" : "payments"} after another had already paid it. The merchant was
            notified (<span className={styles.code}>checkout.duplicate_payment</span>).
            {mayRefund ? " Give the money back:" : " Finance staff can give the money back."}
          </p>
          {duplicates.map(
            (d) =>
              mayRefund && (
                <RefundForm
                  key={d.attemptId}
                  checkoutId={checkout.id}
                  attemptId={d.attemptId}
                  title={`Duplicate payment ${d.providerPaymentId ?? d.attemptId}, completed ${formatDateTime(d.completedAt, true)}`}
                  refundable={d.refundable}
                  refundableText={money(d.refundable)}
                  currency={checkout.currency}
                />
              ),
          )}
        </Section>
      )}

      <Section id="refunds" title="Refunds">
        <DataTable
          caption="Refunds of this checkout"
          empty="No refunds."
          head={["Created", "Amount", "Status", "By", "Reason", "Note"]}
          numeric={[1]}
          rows={refunds.map((r) => ({
            key: r.id,
            cells: [
              <Time key="t" iso={r.createdAt} />,
              money(r.amount),
              statusGroupLabel(r.status),
              REFUND_MADE_BY[r.createdBy] ?? r.createdBy,
              r.reason ?? <None key="n" />,
              r.failureReason ? <span className={styles.code}>{r.failureReason}</span> : "",
            ],
          }))}
        />
        <RefundRequests detail={detail} money={money} />
        {!mayRefund ? null : checkout.status !== "paid" ? (
          <p className="muted">Only a paid checkout can be refunded.</p>
        ) : !REFUND_CURRENCIES.includes(checkout.currency) ? (
          <p className="muted">Refunds are only possible in {REFUND_CURRENCIES.join(" or ")}.</p>
        ) : (
          <RefundForm
            checkoutId={checkout.id}
            refundable={refundable}
            refundableText={money(refundable)}
            currency={checkout.currency}
          />
        )}
      </Section>

      <DetailHistory detail={detail} />
    </>
  );
}
