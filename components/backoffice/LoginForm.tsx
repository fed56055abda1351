"use client";

import { useActionState } from "react";
import { login } from "@/app/backoffice/actions";
import { INITIAL_LOGIN_STATE } from "./action-state";
import styles from "./backoffice.module.css";

export function LoginForm() {
  const [state, action, pending] = useActionState(login, INITIAL_LOGIN_STATE);
  const invalid = state.error !== null;
  return (
    <form action={action} className={`card ${styles.form}`} noValidate>
      {/* Always in the page, so the error is announced when it is written into it. */}
      <div role="alert" id="login-error" className={styles.slot}>
        {state.error && <p className="alert alert-error">{state.error}</p>}
      </div>
      <div className="field">
        <label htmlFor="password">Password</label>
        <input
          id="password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          aria-invalid={invalid || undefined}
          aria-describedby={invalid ? "login-error" : undefined}
        />
      </div>
      <button type="submit" className="btn btn-primary btn-block" aria-busy={pending || undefined}>
        Sign in
      </button>
    </form>
  );
}
