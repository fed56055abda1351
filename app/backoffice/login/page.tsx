import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { LoginForm } from "@/components/backoffice/LoginForm";
import { PasskeyButton } from "@/components/backoffice/PasskeyButton";
import { currentStaff } from "@/components/backoffice/require-staff";
import { StaffLanguages } from "@/components/backoffice/StaffLanguages";
import { staffLocale, staffWords } from "@/components/backoffice/staff-locale";
import styles from "@/components/backoffice/backoffice.module.css";
import { pickStaffWords, staffMessages } from "@/lib/i18n/staff-messages";

export const dynamic = "force-dynamic";

type Search = Promise<{ ended?: string; password?: string; lang?: string }>;

export async function generateMetadata({ searchParams }: { searchParams: Search }): Promise<Metadata> {
  const t = await staffWords((await searchParams).lang);
  return { title: t["signIn.title"], robots: { index: false, follow: false } };
}

/** Sign-in, in the staff member's language: a password, or a passkey alone. */
export default async function LoginPage({ searchParams }: { searchParams: Search }) {
  if (await currentStaff()) redirect("/backoffice");
  const { ended, password, lang } = await searchParams;
  const locale = await staffLocale(lang);
  const t = staffMessages(locale);
  return (
    <main className={styles.loginMain} lang={locale}>
      <header className={styles.pageHeader}>
        <h1>{t["signIn.heading"]}</h1>
        <p>{t["signIn.intro"]}</p>
      </header>
      <div role="status">
        {ended === "all" && <p className="alert alert-success">{t["signIn.endedAll"]}</p>}
        {password === "set" && <p className="alert alert-success">{t["signIn.passwordSet"]}</p>}
      </div>
      <LoginForm t={pickStaffWords(t, ["signIn."])} />
      <PasskeyButton step="sign_in" t={pickStaffWords(t, ["passkey."])} />
      <StaffLanguages locale={locale} path="/backoffice/login" />
    </main>
  );
}
