import styles from "@/components/backoffice/backoffice.module.css";

/**
 * While the checkouts list or a checkout reads the database (and the provider's bank names, 2 s at
 * most). Only these pages, which every role may open: a loading state starts the answer, so a page
 * under it could no longer answer 403 to a role that may not see it (the staff, API key and
 * activity pages render whole, and refuse with 403).
 */
export default function BackofficeLoading() {
  return (
    <main className={styles.main} aria-busy="true">
      <p role="status" className="muted">
        Loading…
      </p>
    </main>
  );
}
