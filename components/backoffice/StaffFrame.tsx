import Link from "next/link";
import type { ReactNode } from "react";
import { logout, logoutEverywhere } from "@/app/backoffice/actions";
import styles from "./backoffice.module.css";

/** The signed-in back office: a bar with the home link, Sign out and Sign out everywhere, then the page. */
export function StaffFrame({ children }: { children: ReactNode }) {
  return (
    <div className={styles.shell}>
      <header className={styles.topbar}>
        <div className={styles.topbarInner}>
          <Link href="/backoffice" className={styles.brand}>
            Back office
          </Link>
          <div className={styles.topbarActions}>
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
      <main className={styles.main}>{children}</main>
    </div>
  );
}
