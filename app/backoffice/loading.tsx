import styles from "@/components/backoffice/backoffice.module.css";

/** While a back-office page reads the database (and the provider's bank names, 2 s at most). */
export default function BackofficeLoading() {
  return (
    <main className={styles.main} aria-busy="true">
      <p role="status" className="muted">
        Loading…
      </p>
    </main>
  );
}
