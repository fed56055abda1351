import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import QRCode from "qrcode";
import { logout } from "@/app/backoffice/login/actions";
import { EnrolForm } from "@/components/backoffice/EnrolForm";
import { PasskeysAdmin } from "@/components/backoffice/PasskeysAdmin";
import { currentSession } from "@/components/backoffice/require-staff";
import { StaffFrame } from "@/components/backoffice/StaffFrame";
import styles from "@/components/backoffice/backoffice.module.css";
import { appContext } from "@/lib/checkout/app-context";
import { listPasskeys } from "@/lib/staff/passkeys";
import { signedInRecently } from "@/lib/staff/sessions";
import { enrolmentSecret, hasAuthenticatorApp, recoveryCodesLeft } from "@/lib/staff/two-step";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Two-step sign-in", robots: { index: false, follow: false } };

/**
 * A person's own two-step sign-in: set it up (required first, for the roles that must have it), or
 * see that it is on and how many recovery codes are left.
 */
export default async function SecurityPage() {
  const session = await currentSession();
  if (!session || session.stage === "second_factor") redirect("/backoffice/login");
  const { db, config } = await appContext();
  const appOn = await hasAuthenticatorApp(db, session.id);
  // The secret is a way in, as a passkey is: shown only after a recent sign-in (lib/staff/two-step.ts).
  const enrolment =
    !appOn && signedInRecently(session) ? await enrolmentSecret(db, session, config.tokenKeys) : undefined;
  const body = enrolment ? (
    <EnrolForm
      secret={enrolment.secret}
      qrSvg={await QRCode.toString(enrolment.uri, { type: "svg", errorCorrectionLevel: "M", margin: 2 })}
    />
  ) : appOn ? (
    <div className="card">
      <p>Two-step sign-in is on. Recovery codes left: {await recoveryCodesLeft(db, session.id)}.</p>
      <p className="muted">
        A lost phone: sign in with a recovery code, then ask an admin to reset your two-step sign-in.
      </p>
    </div>
  ) : (
    <p>
      <Link href="/backoffice/confirm?next=/backoffice/security">Confirm it is you</Link> to set up an authenticator
      app.
    </p>
  );
  const when = (d: Date) =>
    d.toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }) + " UTC";
  const passkeys = (await listPasskeys(db, session.id)).map((p) => ({
    id: p.id,
    name: p.name,
    created: when(p.createdAt),
    lastUsed: p.lastUsedAt && when(p.lastUsedAt),
  }));
  const passkeySection = (
    <section aria-labelledby="passkeys-heading">
      <h2 id="passkeys-heading">Passkeys</h2>
      <p>
        A passkey signs you in without a password, with your device&apos;s PIN, fingerprint or face. It is two steps in
        one, and it cannot be typed into a fake site.
      </p>
      {signedInRecently(session) ? (
        <PasskeysAdmin passkeys={passkeys} enrolling={session.stage === "enrol"} />
      ) : (
        <p>
          <Link href="/backoffice/confirm?next=/backoffice/security">Confirm it is you</Link> to add or remove passkeys
          {passkeys.length > 0 ? ` (you have ${passkeys.length})` : ""}.
        </p>
      )}
    </section>
  );
  const header = (
    <header className={styles.pageHeader}>
      <h1>Two-step sign-in</h1>
      <p>
        {session.stage === "enrol"
          ? "Your role moves money or manages staff, so it signs in with a second step: a code from an app on your phone, or a passkey."
          : "A second step at sign-in: a code from an app on your phone, or a passkey."}
      </p>
    </header>
  );
  // Before it is set up, the page stands alone: nothing else is open yet.
  if (session.stage === "enrol")
    return (
      <main className={styles.loginMain}>
        {header}
        {body}
        {passkeySection}
        <form action={logout}>
          <button type="submit" className="btn btn-secondary">
            Sign out
          </button>
        </form>
      </main>
    );
  return (
    <StaffFrame member={session}>
      {header}
      <section aria-labelledby="app-heading">
        <h2 id="app-heading">Authenticator app</h2>
        {body}
      </section>
      {passkeySection}
    </StaffFrame>
  );
}
