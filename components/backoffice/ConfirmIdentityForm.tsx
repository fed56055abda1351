"use client";

import Link from "next/link";
import { useActionState } from "react";
import { confirmIdentity } from "@/app/backoffice/login/actions";
import type { StaffWordsFor } from "@/lib/i18n/staff-messages";
import { INITIAL_LOGIN_STATE, type LoginState } from "./action-state";
import styles from "./backoffice.module.css";

/** Password or code again, then back to the page the change was made from. */
export function ConfirmIdentityForm({ next, t }: { next: string; t: StaffWordsFor<"confirm."> }) {
  const [state, submit, pending] = useActionState<LoginState, FormData>(confirmIdentity, INITIAL_LOGIN_STATE);
  return (
    <form action={submit} className={`card ${styles.form}`}>
      <div role="alert" id="confirm-error" className={styles.slot}>
        {state.error && <p className="alert alert-error">{state.error}</p>}
      </div>
      <input type="hidden" name="next" value={next} />
      <div className="field">
        <label htmlFor="confirm-secret">{t["confirm.label"]}</label>
        <input
          id="confirm-secret"
          name="secret"
          type="password"
          autoComplete="current-password"
          required
          aria-invalid={state.error ? true : undefined}
          aria-describedby={state.error ? "confirm-error" : undefined}
        />
      </div>
      <button type="submit" className="btn btn-primary btn-block" aria-busy={pending || undefined}>
        {t["confirm.submit"]}
      </button>
      <Link href={next}>{t["confirm.back"]}</Link>
    </form>
  );
}
