import type { Metadata } from "next";
import Link from "next/link";
import { SetPasswordForm } from "@/components/backoffice/SetPasswordForm";
import styles from "@/components/backoffice/backoffice.module.css";
import { appContext } from "@/lib/checkout/app-context";
import { linkHolder } from "@/lib/staff/accounts";

export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: "Set your password",
  robots: { index: false, follow: false },
  // The link is a secret: no other site learns it from a click away.
  referrer: "no-referrer",
};

/** Where an invitation's or a reset's one-time link leads. */
export default async function SetPasswordPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const holder = await linkHolder((await appContext()).db, token);
  return (
    <main className={styles.loginMain}>
      <header className={styles.pageHeader}>
        <h1>Set your password</h1>
        {holder.ok && <p>For {holder.email}. Then sign in with it.</p>}
      </header>
      {holder.ok ? (
        <SetPasswordForm token={token} email={holder.email} />
      ) : (
        <div className="card">
          <p className="alert alert-error">{holder.error.message}</p>
          <p>
            <Link href="/backoffice/login">Sign in</Link>
          </p>
        </div>
      )}
    </main>
  );
}
