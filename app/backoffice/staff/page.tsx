import type { Metadata } from "next";
import { requireStaff } from "@/components/backoffice/require-staff";
import { StaffAdmin } from "@/components/backoffice/StaffAdmin";
import { StaffFrame } from "@/components/backoffice/StaffFrame";
import styles from "@/components/backoffice/backoffice.module.css";
import { appContext } from "@/lib/checkout/app-context";
import { listStaff } from "@/lib/staff/accounts";
import { ROLE_LABELS, ROLES } from "@/lib/staff/roles";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Staff", robots: { index: false, follow: false } };

/** Admins only: who may sign in to the back office, and what each may do. */
export default async function StaffPage() {
  const member = await requireStaff("staff.manage");
  const people = await listStaff((await appContext()).db);
  return (
    <StaffFrame member={member}>
      <header className={styles.pageHeader}>
        <h1>Staff</h1>
        <p>
          Who may sign in, and what each may do. A change of role or a disable signs the person out everywhere at once.
          Times are in UTC.
        </p>
        <ul>
          {ROLES.map((r) => (
            <li key={r}>
              <strong>{ROLE_LABELS[r].name}</strong> {ROLE_LABELS[r].may}.
            </li>
          ))}
        </ul>
      </header>
      <StaffAdmin people={people} selfId={member.id} />
    </StaffFrame>
  );
}
