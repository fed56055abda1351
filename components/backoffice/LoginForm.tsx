"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation } from "@tanstack/react-query";
import { useMemo } from "react";
import { useForm } from "react-hook-form";
import { z } from "zod";
import type { StaffWordsFor } from "@/lib/i18n/staff-messages";
import { login } from "@/app/backoffice/login/actions";
import { INITIAL_LOGIN_STATE } from "./action-state";
import styles from "./backoffice.module.css";

const loginFieldsIn = (t: StaffWordsFor<"signIn.">) =>
  z.object({
    email: z.string().trim().min(1, t["signIn.enterEmail"]),
    password: z.string().min(1, t["signIn.enterPassword"]),
  });
type LoginFields = z.infer<ReturnType<typeof loginFieldsIn>>;

/**
 * Sign-in: react-hook-form checks that both fields were filled, the server action checks them (and
 * redirects on success); a refusal lands on the password field and is announced. The refusal never
 * says which of the two was wrong.
 */
export function LoginForm({ t }: { t: StaffWordsFor<"signIn."> }) {
  const loginFields = useMemo(() => loginFieldsIn(t), [t]);
  const form = useForm<LoginFields>({
    resolver: zodResolver(loginFields),
    defaultValues: { email: "", password: "" },
  });
  const signIn = useMutation({
    mutationFn: ({ email, password }: LoginFields) => {
      const data = new FormData();
      data.set("email", email);
      data.set("password", password);
      return login(INITIAL_LOGIN_STATE, data);
    },
    onSuccess: (state) => {
      if (state?.error) form.setError("password", { type: "server", message: state.error }, { shouldFocus: true });
    },
  });
  const { errors } = form.formState;
  const error = errors.email?.message ?? errors.password?.message;
  return (
    <form
      onSubmit={(event) => void form.handleSubmit((v) => signIn.mutate(v))(event)}
      className={`card ${styles.form}`}
      noValidate
    >
      {/* Always in the page, so the error is announced when it is written into it. */}
      <div role="alert" id="login-error" className={styles.slot}>
        {error && <p className="alert alert-error">{error}</p>}
      </div>
      <div className="field">
        <label htmlFor="email">{t["signIn.email"]}</label>
        <input
          id="email"
          {...form.register("email")}
          type="email"
          autoComplete="username"
          required
          aria-invalid={errors.email ? true : undefined}
          aria-describedby={errors.email ? "login-error" : undefined}
        />
      </div>
      <div className="field">
        <label htmlFor="password">{t["signIn.password"]}</label>
        <input
          id="password"
          {...form.register("password")}
          type="password"
          autoComplete="current-password"
          required
          aria-invalid={errors.password ? true : undefined}
          aria-describedby={errors.password ? "login-error" : undefined}
        />
      </div>
      <button type="submit" className="btn btn-primary btn-block" aria-busy={signIn.isPending || undefined}>
        {t["signIn.submit"]}
      </button>
    </form>
  );
}
