import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { LoginForm } from "@/components/backoffice/LoginForm";
import { hasStaffSession } from "@/components/backoffice/require-staff";
import styles from "@/components/backoffice/backoffice.module.css";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Sign in", robots: { index: false, follow: false } };

export default async function LoginPage({ searchParams }: { searchParams: Promise<{ ended?: string }> }) {
  if (await hasStaffSession()) redirect("/backoffice");
  const endedEverywhere = (await searchParams).ended === "all";
  return (
    <main className={styles.loginMain}>
      <header className={styles.pageHeader}>
        <h1>Back office</h1>
        <p>Sign in with the staff password to see checkouts and make refunds.</p>
      </header>
      <div role="status">
        {endedEverywhere && (
          <p className="alert alert-success">Signed out everywhere: every staff session has ended.</p>
        )}
      </div>
      <LoginForm />
    </main>
  );
}
