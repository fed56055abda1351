"use client";

import { useState, useTransition } from "react";
import { answerPasskey, passkeyOptions } from "@/app/backoffice/login/actions";
import type { StaffWordsFor } from "@/lib/i18n/staff-messages";
import styles from "./backoffice.module.css";

const LABELS = { sign_in: "passkey.signIn", second_factor: "passkey.use", confirm: "passkey.confirm" } as const;

/**
 * Signs in (or takes the second step, or confirms) with a passkey: a challenge from the server,
 * the browser's own passkey dialog, and the signature back. The WebAuthn library loads on the
 * click, not with the page.
 */
export function PasskeyButton({
  step,
  next,
  t,
}: {
  step: "sign_in" | "second_factor" | "confirm";
  next?: string;
  t: StaffWordsFor<"passkey.">;
}) {
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const use = () =>
    startTransition(async () => {
      setError(null);
      const form = new FormData();
      form.set("step", step);
      if (next) form.set("next", next);
      const asked = await passkeyOptions(form);
      if ("error" in asked) return setError(asked.error);
      const { startAuthentication } = await import("@simplewebauthn/browser");
      const answer = await startAuthentication({ optionsJSON: asked.options }).catch(() => undefined);
      if (!answer) return setError(t["passkey.notDone"]);
      // Answers only when refused: a passkey that works moves on to the back office.
      form.set("answer", JSON.stringify(answer));
      const refused = await answerPasskey(form);
      setError(refused.error);
    });
  return (
    <div className={styles.form}>
      <div role="alert" className={styles.slot}>
        {error && <p className="alert alert-error">{error}</p>}
      </div>
      <button type="button" className="btn btn-secondary btn-block" onClick={use} aria-busy={pending || undefined}>
        {t[LABELS[step]]}
      </button>
    </div>
  );
}
