"use client";

import { useActionState } from "react";
import { verifySecondFactor } from "@/app/backoffice/login/actions";
import type { StaffWordsFor } from "@/lib/i18n/staff-messages";
import { INITIAL_LOGIN_STATE, type LoginState } from "./action-state";
import styles from "./backoffice.module.css";

/** The second step of signing in: the app's 6 digits, or one of the recovery codes. */
export function SecondFactorForm({ t }: { t: StaffWordsFor<"code."> }) {
  const [state, submit, pending] = useActionState<LoginState, FormData>(verifySecondFactor, INITIAL_LOGIN_STATE);
  return (
    <form action={submit} className={`card ${styles.form}`}>
      <div role="alert" id="code-error" className={styles.slot}>
        {state.error && <p className="alert alert-error">{state.error}</p>}
      </div>
      <div className="field">
        <label htmlFor="code">{t["code.label"]}</label>
        <input
          id="code"
          name="code"
          autoComplete="one-time-code"
          inputMode="text"
          autoCapitalize="off"
          spellCheck={false}
          required
          aria-describedby={state.error ? "code-error code-hint" : "code-hint"}
          aria-invalid={state.error ? true : undefined}
          // The page is for this one field: it has the focus when the page opens.
          autoFocus
        />
        <p id="code-hint" className="muted">
          {t["code.hint"]}
        </p>
      </div>
      <button type="submit" className="btn btn-primary btn-block" aria-busy={pending || undefined}>
        {t["code.submit"]}
      </button>
    </form>
  );
}
