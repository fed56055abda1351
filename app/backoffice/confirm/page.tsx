import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { ConfirmIdentityForm } from "@/components/backoffice/ConfirmIdentityForm";
import { PasskeyButton } from "@/components/backoffice/PasskeyButton";
import { currentStaff, safeReturnPath } from "@/components/backoffice/require-staff";
import { StaffLanguages } from "@/components/backoffice/StaffLanguages";
import { staffLocale, staffWords } from "@/components/backoffice/staff-locale";
import styles from "@/components/backoffice/backoffice.module.css";
import { appContext } from "@/lib/checkout/app-context";
import { pickStaffWords, staffMessages, staffText } from "@/lib/i18n/staff-messages";
import { listPasskeys } from "@/lib/staff/passkeys";

export const dynamic = "force-dynamic";

type Search = Promise<{ next?: string | string[]; lang?: string }>;

export async function generateMetadata({ searchParams }: { searchParams: Search }): Promise<Metadata> {
  const t = await staffWords((await searchParams).lang);
  return { title: t["confirm.heading"], robots: { index: false, follow: false } };
}

/** Recent sign-in: asked before API keys, staff changes and large refunds when the last is over 5 minutes old. */
export default async function ConfirmPage({ searchParams }: { searchParams: Search }) {
  const member = await currentStaff();
  if (!member) redirect("/backoffice/login");
  const search = await searchParams;
  const next = safeReturnPath(search.next);
  const locale = await staffLocale(search.lang);
  const t = staffMessages(locale);
  const passkeys = await listPasskeys((await appContext()).db, member.id);
  return (
    <main className={styles.loginMain} lang={locale}>
      <header className={styles.pageHeader}>
        <h1>{t["confirm.heading"]}</h1>
        <p>{staffText(t, "confirm.intro", { email: member.email })}</p>
      </header>
      <ConfirmIdentityForm next={next} t={pickStaffWords(t, ["confirm."])} />
      {passkeys.length > 0 && <PasskeyButton step="confirm" next={next} t={pickStaffWords(t, ["passkey."])} />}
      <StaffLanguages locale={locale} path="/backoffice/confirm" />
    </main>
  );
}
