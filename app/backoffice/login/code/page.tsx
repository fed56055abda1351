import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { currentSession } from "@/components/backoffice/require-staff";
import { SecondFactorForm } from "@/components/backoffice/SecondFactorForm";
import styles from "@/components/backoffice/backoffice.module.css";
import { logout } from "@/app/backoffice/login/actions";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Two-step sign-in", robots: { index: false, follow: false } };

/** After the password, for a person with two-step sign-in on. */
export default async function SecondFactorPage() {
  const session = await currentSession();
  if (!session) redirect("/backoffice/login");
  if (session.stage !== "second_factor") redirect("/backoffice");
  return (
    <main className={styles.loginMain}>
      <header className={styles.pageHeader}>
        <h1>Two-step sign-in</h1>
        <p>Signing in as {session.email}.</p>
      </header>
      <SecondFactorForm />
      <form action={logout}>
        <button type="submit" className="btn btn-secondary">
          Cancel and sign out
        </button>
      </form>
    </main>
  );
}
