"use client";

import Link from "next/link";
import { useEffect, useRef, useState, useTransition } from "react";
import { addPasskeyAction, passkeyRegistrationOptions, removePasskeyAction } from "@/app/backoffice/security/actions";
import type { ActionResult } from "./action-state";
import { ActionOutcome } from "./ActionOutcome";
import styles from "./backoffice.module.css";
import { useRefreshOn } from "./shown-once";

export interface PasskeyRow {
  id: string;
  name: string;
  created: string;
  lastUsed: string | null;
}

/**
 * A person's own passkeys: the list, Add (named, made by the browser's passkey dialog) and Remove.
 * The outcome of each is announced and focused.
 */
export function PasskeysAdmin({ passkeys, enrolling }: { passkeys: PasskeyRow[]; enrolling: boolean }) {
  const [outcome, setOutcome] = useState<ActionResult | null>(null);
  const [pending, startTransition] = useTransition();
  const messageRef = useRef<HTMLParagraphElement>(null);
  // Setting up a required second step, the page is not read again (it would become the full
  // back office under the person's eyes): they go on with the link instead.
  useRefreshOn(enrolling ? null : outcome);
  useEffect(() => {
    if (outcome) messageRef.current?.focus();
  }, [outcome]);
  const add = (form: FormData) =>
    startTransition(async () => {
      const options = await passkeyRegistrationOptions();
      const { startRegistration } = await import("@simplewebauthn/browser");
      const made = await startRegistration({ optionsJSON: options }).catch(() => undefined);
      form.set("answer", JSON.stringify(made ?? null));
      setOutcome(
        made
          ? await addPasskeyAction(form)
          : { ok: false, error: "No passkey was made: it was cancelled, or this device already has one for you." },
      );
    });
  const remove = (id: string) =>
    startTransition(async () => {
      const form = new FormData();
      form.set("passkeyId", id);
      setOutcome(await removePasskeyAction(form));
    });
  if (enrolling && outcome?.ok)
    return (
      <div className="card">
        <ActionOutcome name="Passkeys" outcome={outcome} messageRef={messageRef} className={styles.slot} />
        <Link href="/backoffice" className="btn btn-primary">
          Continue to the back office
        </Link>
      </div>
    );
  return (
    <div className="card">
      <ActionOutcome name="Passkeys" outcome={outcome} messageRef={messageRef} className={styles.slot} />
      {passkeys.length > 0 && (
        <ul aria-label="Your passkeys" className={styles.plainList}>
          {passkeys.map((p) => (
            <li key={p.id}>
              <strong>{p.name}</strong>{" "}
              <span className="muted">
                added {p.created}
                {p.lastUsed ? `, last used ${p.lastUsed}` : ", not used yet"}
              </span>{" "}
              <button
                type="button"
                className="btn btn-secondary"
                onClick={() => remove(p.id)}
                aria-label={`Remove passkey ${p.name}`}
                disabled={pending}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <form action={add} className={styles.form}>
        <div className="field">
          <label htmlFor="passkey-name">Name of the new passkey</label>
          <input id="passkey-name" name="name" maxLength={60} placeholder="Work laptop" required />
        </div>
        <button type="submit" className="btn btn-primary" aria-busy={pending || undefined}>
          Add a passkey
        </button>
      </form>
    </div>
  );
}
