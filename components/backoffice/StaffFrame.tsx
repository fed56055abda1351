import Link from "next/link";
import type { ReactNode } from "react";
import { logout, logoutEverywhere } from "@/app/backoffice/login/actions";
import { ROLE_LABELS, STAFF_ACTIONS, allows, type StaffAction } from "@/lib/staff/roles";
import type { SignedInStaff } from "@/lib/staff/sessions";
import { StaffPermissions } from "./staff-permissions";
import styles from "./backoffice.module.css";

/**
 * The signed-in back office: a bar with the home link, the pages the person's role opens, who is
 * signed in, Sign out and Sign out everywhere, then the page.
 */
export function StaffFrame({ member, children }: { member: SignedInStaff; children: ReactNode }) {
  const allowed = (Object.keys(STAFF_ACTIONS) as StaffAction[]).filter((a) => allows(member.role, a));
  return (
    <div className={styles.shell}>
      <header className={styles.topbar}>
        <div className={styles.topbarInner}>
          <nav aria-label="Back office" className={styles.topbarNav}>
            <Link href="/backoffice" className={styles.brand}>
              Back office
            </Link>
            {allowed.includes("payment_links.view") && <Link href="/backoffice/payment-links">Payment links</Link>}
            {allowed.includes("staff.manage") && <Link href="/backoffice/staff">Staff</Link>}
            {allowed.includes("api_keys.manage") && <Link href="/backoffice/api-keys">API keys</Link>}
            {allowed.includes("audit.view") && <Link href="/backoffice/activity">Activity</Link>}
            <Link href="/backoffice/security">Two-step sign-in</Link>
          </nav>
          <div className={styles.topbarActions}>
            <p className={styles.whoami}>
              {member.email} <span className="muted">· {ROLE_LABELS[member.role].name}</span>
            </p>
            <form action={logoutEverywhere}>
              <button type="submit" className="btn btn-secondary">
                Sign out everywhere
              </button>
            </form>
            <form action={logout}>
              <button type="submit" className="btn btn-secondary">
                Sign out
              </button>
            </form>
          </div>
        </div>
      </header>
      <main className={styles.main}>
        <StaffPermissions allowed={allowed} selfId={member.id}>
          {children}
        </StaffPermissions>
      </main>
    </div>
  );
}
