import type { Metadata } from "next";
import Link from "next/link";
import { DataTable } from "@/components/backoffice/DataTable";
import { requireStaff } from "@/components/backoffice/require-staff";
import { StaffFrame } from "@/components/backoffice/StaffFrame";
import { None, Time } from "@/components/backoffice/detail-parts";
import styles from "@/components/backoffice/backoffice.module.css";
import { AUDIT_ACTIONS, AUDIT_OUTCOMES, auditActionLabel, auditDetailText } from "@/lib/audit/actions";
import { listAudit } from "@/lib/audit/audit";
import { parseActivityQuery, toAuditFilter } from "@/lib/audit/filter";
import { appContext } from "@/lib/checkout/app-context";
import { listStaff } from "@/lib/staff/accounts";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Activity", robots: { index: false, follow: false } };

const SHOWN = 200;

/** Admins only: the audit trail, newest first, filtered by person, action and days; export as CSV. */
export default async function ActivityPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const member = await requireStaff("audit.view");
  const { query, dropped } = parseActivityQuery(await searchParams);
  const { db } = await appContext();
  const [rows, people] = await Promise.all([listAudit(db, { ...toAuditFilter(query), limit: SHOWN }), listStaff(db)]);
  const csv = `/api/backoffice/activity?${new URLSearchParams(query as Record<string, string>)}`;
  return (
    <StaffFrame member={member}>
      <header className={styles.pageHeader}>
        <h1>Activity</h1>
        <p>Who did what in the back office, newest first. Nothing here can be changed or deleted. Times are in UTC.</p>
      </header>
      <form method="get" className={`card ${styles.filters}`} aria-label="Filter the activity">
        <div className="field">
          <label htmlFor="activity-person">Person</label>
          <select id="activity-person" name="person" defaultValue={query.person ?? ""}>
            <option value="">Everyone</option>
            {people.map((p) => (
              <option key={p.id} value={p.id}>
                {p.email}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="activity-action">Action</label>
          <select id="activity-action" name="action" defaultValue={query.action ?? ""}>
            <option value="">Any action</option>
            {Object.entries(AUDIT_ACTIONS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="activity-from">From</label>
          <input id="activity-from" name="from" type="date" defaultValue={query.from ?? ""} />
        </div>
        <div className="field">
          <label htmlFor="activity-to">To</label>
          <input id="activity-to" name="to" type="date" defaultValue={query.to ?? ""} />
        </div>
        <div className={styles.filterActions}>
          <button type="submit" className="btn btn-primary">
            Apply filters
          </button>
          <Link href={csv} className="btn btn-secondary" prefetch={false}>
            Download CSV
          </Link>
        </div>
      </form>
      {dropped.length > 0 && (
        <p className="alert alert-error" role="status">
          Not understood, so not applied: {dropped.join(", ")}.
        </p>
      )}
      <DataTable
        caption={rows.length === SHOWN ? `The newest ${SHOWN} matching rows (the CSV has more)` : "Matching rows"}
        empty="Nothing matches these filters."
        head={["Time", "Who", "Action", "Target", "Outcome", "Detail", "Address"]}
        rows={rows.map((r) => ({
          key: String(r.id),
          cells: [
            <Time key="t" iso={r.occurredAt.toISOString()} />,
            r.actorLabel ?? (r.actorKind === "anonymous" ? "Someone not signed in" : (r.actorId ?? r.actorKind)),
            auditActionLabel(r.action),
            r.targetKind === "checkout" && r.targetId ? (
              <Link key="c" href={`/backoffice/checkouts/${r.targetId}`} className={styles.code}>
                {r.targetId}
              </Link>
            ) : r.targetId ? (
              <span key="s" className={styles.code}>
                {r.targetId}
              </span>
            ) : (
              <None key="n" />
            ),
            AUDIT_OUTCOMES[r.outcome],
            r.detail ? auditDetailText(r.detail) : <None key="d" />,
            r.clientAddress ?? <None key="a" />,
          ],
        }))}
      />
    </StaffFrame>
  );
}
