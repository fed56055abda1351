"use client";

import Link from "next/link";
import { useActionState, useEffect, useRef } from "react";
import { confirmEnrolmentAction, type EnrolResult } from "@/app/backoffice/security/actions";
import { ActionOutcome } from "./ActionOutcome";
import styles from "./backoffice.module.css";

/** Setting up two-step sign-in: scan the code (or type the key), then confirm with the app's digits. */
export function EnrolForm({ qrSvg, secret }: { qrSvg: string; secret: string }) {
  const [outcome, submit, pending] = useActionState<EnrolResult, FormData>(confirmEnrolmentAction, null);
  const messageRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (outcome) messageRef.current?.focus();
  }, [outcome]);
  if (outcome?.ok && outcome.codes)
    return (
      <div className="card">
        <ActionOutcome name="Two-step sign-in" outcome={outcome} messageRef={messageRef} className={styles.slot} />
        <h2>Recovery codes</h2>
        <ul className={styles.recoveryCodes} aria-label="Recovery codes">
          {outcome.codes.map((c) => (
            <li key={c} className={styles.code}>
              {c}
            </li>
          ))}
        </ul>
        <Link href="/backoffice" className="btn btn-primary">
          Continue to the back office
        </Link>
      </div>
    );
  return (
    <form action={submit} className={`card ${styles.form}`}>
      <ol>
        <li>Open an authenticator app on your phone (any app for one-time codes) and scan this code:</li>
      </ol>
      {/* The library's markup: the code's squares as path data. */}
      <div
        className={styles.enrolQr}
        role="img"
        aria-label="QR code to add this account to an authenticator app"
        dangerouslySetInnerHTML={{ __html: qrSvg }}
      />
      <p>
        Or type this key into the app: <span className={styles.code}>{secret}</span>
      </p>
      <ActionOutcome name="Two-step sign-in" outcome={outcome} messageRef={messageRef} className={styles.slot} />
      <div className="field">
        <label htmlFor="enrol-code">Code from the app</label>
        <input
          id="enrol-code"
          name="code"
          autoComplete="one-time-code"
          inputMode="numeric"
          pattern="[0-9 ]{6,7}"
          required
        />
      </div>
      <button type="submit" className="btn btn-primary" aria-busy={pending || undefined}>
        Turn on two-step sign-in
      </button>
    </form>
  );
}
