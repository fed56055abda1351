import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { logout } from "@/app/backoffice/login/actions";
import { PasskeyButton } from "@/components/backoffice/PasskeyButton";
import { currentSession } from "@/components/backoffice/require-staff";
import { SecondFactorForm } from "@/components/backoffice/SecondFactorForm";
import { StaffLanguages } from "@/components/backoffice/StaffLanguages";
import { staffLocale, staffWords } from "@/components/backoffice/staff-locale";
import styles from "@/components/backoffice/backoffice.module.css";
import { appContext } from "@/lib/checkout/app-context";
import { pickStaffWords, staffMessages, staffText } from "@/lib/i18n/staff-messages";
import { listPasskeys } from "@/lib/staff/passkeys";
import { hasAuthenticatorApp } from "@/lib/staff/two-step";

export const dynamic = "force-dynamic";

type Search = Promise<{ lang?: string }>;

export async function generateMetadata({ searchParams }: { searchParams: Search }): Promise<Metadata> {
  const t = await staffWords((await searchParams).lang);
  return { title: t["code.heading"], robots: { index: false, follow: false } };
}

/** After the password, for a person with two-step sign-in on: a passkey, or a code from the app. */
export default async function SecondFactorPage({ searchParams }: { searchParams: Search }) {
  const session = await currentSession();
  if (!session) redirect("/backoffice/login");
  if (session.stage !== "second_factor") redirect("/backoffice");
  const locale = await staffLocale((await searchParams).lang);
  const t = staffMessages(locale);
  const { db } = await appContext();
  const [passkeys, app] = await Promise.all([listPasskeys(db, session.id), hasAuthenticatorApp(db, session.id)]);
  return (
    <main className={styles.loginMain} lang={locale}>
      <header className={styles.pageHeader}>
        <h1>{t["code.heading"]}</h1>
        <p>{staffText(t, "code.signingInAs", { email: session.email })}</p>
      </header>
      {passkeys.length > 0 && <PasskeyButton step="second_factor" t={pickStaffWords(t, ["passkey."])} />}
      {app && <SecondFactorForm t={pickStaffWords(t, ["code."])} />}
      <form action={logout}>
        <button type="submit" className="btn btn-secondary">
          {t["code.cancel"]}
        </button>
      </form>
      <StaffLanguages locale={locale} path="/backoffice/login/code" />
    </main>
  );
}
