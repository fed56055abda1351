import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { ConfirmIdentityForm } from "@/components/backoffice/ConfirmIdentityForm";
import { PasskeyButton } from "@/components/backoffice/PasskeyButton";
import { appContext } from "@/lib/checkout/app-context";
import { listPasskeys } from "@/lib/staff/passkeys";
import { currentStaff, safeReturnPath } from "@/components/backoffice/require-staff";
import styles from "@/components/backoffice/backoffice.module.css";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Confirm it is you", robots: { index: false, follow: false } };

/** Recent sign-in: asked before API keys, staff changes and large refunds when the last is over 5 minutes old. */
export default async function ConfirmPage({ searchParams }: { searchParams: Promise<{ next?: string | string[] }> }) {
  const member = await currentStaff();
  if (!member) redirect("/backoffice/login");
  const next = safeReturnPath((await searchParams).next);
  return (
    <main className={styles.loginMain}>
      <header className={styles.pageHeader}>
        <h1>Confirm it is you</h1>
        <p>
          Signed in as {member.email}. Changes to API keys and staff, and large refunds, ask for your password (or a
          code from your app) when you last gave it over 5 minutes ago.
        </p>
      </header>
      <ConfirmIdentityForm next={next} />
      {(await listPasskeys((await appContext()).db, member.id)).length > 0 && (
        <PasskeyButton step="confirm" next={next}>
          Confirm with a passkey
        </PasskeyButton>
      )}
    </main>
  );
}
