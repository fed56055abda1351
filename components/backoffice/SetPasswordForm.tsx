"use client";

import { useActionState, useRef, useState } from "react";
import { setPasswordAction } from "@/app/backoffice/staff/actions";
import { format } from "@/lib/i18n/format";
import type { StaffWordsFor } from "@/lib/i18n/staff-messages";
import { MIN_PASSWORD_LENGTH } from "@/lib/staff/password-rules";
import type { ActionResult } from "./action-state";
import styles from "./backoffice.module.css";

/**
 * A new password, typed twice. The server checks the rules again (length, not a well-known one)
 * and the link; a refusal is announced and the fields keep nothing.
 */
export function SetPasswordForm({
  token,
  email,
  t,
}: {
  token: string;
  email: string;
  t: StaffWordsFor<"setPassword.">;
}) {
  const [outcome, submit, pending] = useActionState<ActionResult | null, FormData>(setPasswordAction, null);
  const [mismatch, setMismatch] = useState(false);
  const confirmRef = useRef<HTMLInputElement>(null);
  const error = mismatch ? t["setPassword.mismatch"] : outcome && !outcome.ok ? outcome.error : undefined;
  return (
    <form
      action={submit}
      onSubmit={(event) => {
        const data = new FormData(event.currentTarget);
        const differ = data.get("password") !== data.get("confirm");
        setMismatch(differ);
        if (differ) {
          event.preventDefault();
          confirmRef.current?.focus();
        }
      }}
      className={`card ${styles.form}`}
    >
      <div role="alert" id="set-password-error" className={styles.slot}>
        {error && <p className="alert alert-error">{error}</p>}
      </div>
      <input type="hidden" name="token" value={token} />
      {/* For password managers: whose password this is. */}
      <input type="hidden" name="username" value={email} autoComplete="username" />
      <div className="field">
        <label htmlFor="new-password">{t["setPassword.new"]}</label>
        <input
          id="new-password"
          name="password"
          type="password"
          autoComplete="new-password"
          minLength={MIN_PASSWORD_LENGTH}
          required
          aria-describedby="new-password-hint"
          aria-invalid={error && !mismatch ? true : undefined}
        />
        <p id="new-password-hint" className="muted">
          {format(t["setPassword.hint"], { min: MIN_PASSWORD_LENGTH })}
        </p>
      </div>
      <div className="field">
        <label htmlFor="confirm-password">{t["setPassword.again"]}</label>
        <input
          id="confirm-password"
          name="confirm"
          type="password"
          autoComplete="new-password"
          required
          ref={confirmRef}
          aria-invalid={mismatch || undefined}
          aria-describedby={mismatch ? "set-password-error" : undefined}
        />
      </div>
      <button type="submit" className="btn btn-primary btn-block" aria-busy={pending || undefined}>
        {t["setPassword.submit"]}
      </button>
    </form>
  );
}
