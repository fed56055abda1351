import { AUDIT_OUTCOMES, auditActionLabel, auditDetailText } from "@/lib/audit/actions";
import type { StaffDetail } from "@/lib/checkout/contract";
import type { CheckoutStatus } from "@/lib/checkout/types";
import { DataTable } from "./DataTable";
import { DetailNotifications } from "./DetailNotifications";
import { Code, None, Section, Time } from "./detail-parts";
import { METHOD_LABELS, STATUS_LABELS, outcomeLabel, sourceLabel, statusGroupLabel } from "./format";
import styles from "./backoffice.module.css";

const statusWord = (s: string | null) => (s === null ? "New" : (STATUS_LABELS[s as CheckoutStatus] ?? s));

/** What happened to one checkout: its status changes, staff actions, payment attempts, webhooks and notifications. */
export function DetailHistory({ detail }: { detail: StaffDetail }) {
  const { attempts, timeline, webhooks, bankNames, staffActions } = detail;
  return (
    <>
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

      <Section id="staff-actions" title="Actions by staff and API keys">
        <DataTable
          caption="What staff and API keys did to this checkout, oldest first, and who"
          empty="No refund, cancel or notification sent again yet."
          head={["Time", "Who", "Action", "Outcome", "Detail"]}
          rows={staffActions.map((a, i) => ({
            key: String(i),
            cells: [
              <Time key="t" iso={a.at} />,
              a.by,
              auditActionLabel(a.action),
              AUDIT_OUTCOMES[a.outcome],
              a.detail ? auditDetailText(a.detail) : <None key="n" />,
            ],
          }))}
        />
      </Section>

      <Section id="attempts" title="Payment attempts">
        <DataTable
          caption="Payment attempts, oldest first"
          empty="The payer has not started a payment yet."
          head={[
            "Started",
            "Method",
            "Bank",
            "Provider payment id",
            "Status group",
            "Provider status",
            "Failure reason",
            "Abandoned",
            "Duplicate",
          ]}
          rows={attempts.map((a) => ({
            key: a.id,
            cells: [
              <Time key="t" iso={a.createdAt} />,
              METHOD_LABELS[a.method] ?? a.method,
              a.bankId ? (bankNames[a.bankId] ?? a.bankId) : <span className="muted">Chosen at the provider</span>,
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
            cells: [
              <Time key="t" iso={w.at} />,
              w.type ?? <None key="n" />,
              w.signatureValid ? "Valid" : "Invalid",
              outcomeLabel(w.outcome),
            ],
          }))}
        />
      </Section>

      <DetailNotifications detail={detail} />
    </>
  );
}
