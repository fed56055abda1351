import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { currentSession } from "@/components/backoffice/require-staff";
import { PasskeyButton } from "@/components/backoffice/PasskeyButton";
import { SecondFactorForm } from "@/components/backoffice/SecondFactorForm";
import { appContext } from "@/lib/checkout/app-context";
import { listPasskeys } from "@/lib/staff/passkeys";
import { hasAuthenticatorApp } from "@/lib/staff/two-step";
import styles from "@/components/backoffice/backoffice.module.css";
import { logout } from "@/app/backoffice/login/actions";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Two-step sign-in", robots: { index: false, follow: false } };

/** After the password, for a person with two-step sign-in on. */
export default async function SecondFactorPage() {
  const session = await currentSession();
  if (!session) redirect("/backoffice/login");
  if (session.stage !== "second_factor") redirect("/backoffice");
  const { db } = await appContext();
  const [passkeys, app] = await Promise.all([listPasskeys(db, session.id), hasAuthenticatorApp(db, session.id)]);
  return (
    <main className={styles.loginMain}>
      <header className={styles.pageHeader}>
        <h1>Two-step sign-in</h1>
        <p>Signing in as {session.email}.</p>
      </header>
      {passkeys.length > 0 && <PasskeyButton step="second_factor">Use a passkey</PasskeyButton>}
      {app && <SecondFactorForm />}
      <form action={logout}>
        <button type="submit" className="btn btn-secondary">
          Cancel and sign out
        </button>
      </form>
    </main>
  );
}
