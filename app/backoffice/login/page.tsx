import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { LoginForm } from "@/components/backoffice/LoginForm";
import { PasskeyButton } from "@/components/backoffice/PasskeyButton";
import { currentStaff } from "@/components/backoffice/require-staff";
import styles from "@/components/backoffice/backoffice.module.css";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Sign in", robots: { index: false, follow: false } };

export default async function LoginPage({
  searchParams,
}: {
  searchParams: Promise<{ ended?: string; password?: string }>;
}) {
  if (await currentStaff()) redirect("/backoffice");
  const { ended, password } = await searchParams;
  return (
    <main className={styles.loginMain}>
      <header className={styles.pageHeader}>
        <h1>Back office</h1>
        <p>Sign in with your staff email and password, or with a passkey.</p>
      </header>
      <div role="status">
        {ended === "all" && (
          <p className="alert alert-success">Signed out everywhere: every session of yours has ended.</p>
        )}
        {password === "set" && <p className="alert alert-success">Your password is set. Sign in with it.</p>}
      </div>
      <LoginForm />
      <PasskeyButton step="sign_in">Sign in with a passkey</PasskeyButton>
    </main>
  );
}
