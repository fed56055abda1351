import type { Metadata } from "next";
import Link from "next/link";
import { SetPasswordForm } from "@/components/backoffice/SetPasswordForm";
import { StaffLanguages } from "@/components/backoffice/StaffLanguages";
import { staffLocale, staffWords } from "@/components/backoffice/staff-locale";
import styles from "@/components/backoffice/backoffice.module.css";
import { appContext } from "@/lib/checkout/app-context";
import { linkRefusalText, pickStaffWords, staffMessages, staffText } from "@/lib/i18n/staff-messages";
import { linkHolder } from "@/lib/staff/accounts";

export const dynamic = "force-dynamic";

type Params = Promise<{ token: string }>;
type Search = Promise<{ lang?: string }>;

export async function generateMetadata({ searchParams }: { searchParams: Search }): Promise<Metadata> {
  const t = await staffWords((await searchParams).lang);
  return {
    title: t["setPassword.heading"],
    robots: { index: false, follow: false },
    // The link is a secret: no other site learns it from a click away.
    referrer: "no-referrer",
  };
}

/** Where an invitation's or a reset's one-time link leads; a used or expired one says so. */
export default async function SetPasswordPage({ params, searchParams }: { params: Params; searchParams: Search }) {
  const { token } = await params;
  const locale = await staffLocale((await searchParams).lang);
  const t = staffMessages(locale);
  const holder = await linkHolder((await appContext()).db, token);
  return (
    <main className={styles.loginMain} lang={locale}>
      <header className={styles.pageHeader}>
        <h1>{t["setPassword.heading"]}</h1>
        {holder.ok && <p>{staffText(t, "setPassword.for", { email: holder.email })}</p>}
      </header>
      {holder.ok ? (
        <SetPasswordForm token={token} email={holder.email} t={pickStaffWords(t, ["setPassword."])} />
      ) : (
        <div className="card">
          <p className="alert alert-error">{linkRefusalText(t, holder.error.code) ?? t["link.unknown"]}</p>
          <p>
            <Link href="/backoffice/login">{t["signIn.submit"]}</Link>
          </p>
        </div>
      )}
      <StaffLanguages locale={locale} path={`/backoffice/set-password/${encodeURIComponent(token)}`} />
    </main>
  );
}
