"use client";

import { useActionState, useId, useRef } from "react";
import { makeSecretAction, rollSecretAction, type KeyResult } from "@/app/backoffice/api-keys/actions";
import { ROLL_OVERLAPS } from "@/lib/api-keys/scopes";
import { ActionOutcome } from "./ActionOutcome";
import { ShownOnce, useRefreshOn } from "./shown-once";
import { DataTable } from "./DataTable";
import { Time } from "./detail-parts";
import styles from "./backoffice.module.css";

export interface SecretRow {
  id: string;
  prefix: string;
  createdAt: string;
  expiresAt: string | null;
  signing: boolean;
}

/** The secrets that sign notifications: make one (shown once), roll one with an overlap. */
export function NotifySecretsAdmin({ secrets }: { secrets: SecretRow[] }) {
  const [made, make, making] = useActionState<KeyResult, FormData>(makeSecretAction, null);
  const messageRef = useRef<HTMLParagraphElement>(null);
  useRefreshOn(made);
  return (
    <section aria-labelledby="secrets-heading">
      <h2 id="secrets-heading">Notification signing secrets</h2>
      <p>
        Each secret here signs every notification (<span className={styles.code}>Checkout-Signature</span>, one{" "}
        <span className={styles.code}>v1=</span> per secret), beside MERCHANT_NOTIFY_SECRET if it is set. Roll one to
        move your backend to a new secret without refusing a notification.
      </p>
      <DataTable
        caption="Signing secrets, newest first"
        empty="No signing secret made here yet: notifications are signed with MERCHANT_NOTIFY_SECRET."
        head={["Secret", "Made", "Signs", "Actions"]}
        rows={secrets.map((s) => ({
          key: s.id,
          cells: [
            <span key="p" className={styles.code}>
              {s.prefix}…
            </span>,
            <Time key="c" iso={s.createdAt} />,
            s.signing ? (
              s.expiresAt ? (
                <span key="u">
                  until <Time iso={s.expiresAt} />
                </span>
              ) : (
                "yes"
              )
            ) : (
              "no longer"
            ),
            <RollSecret key="a" row={s} />,
          ],
        }))}
      />
      <form action={make} className={styles.inlineForm}>
        <button type="submit" className="btn btn-secondary" aria-busy={making || undefined}>
          Make a signing secret
        </button>
      </form>
      <ActionOutcome name="Make a signing secret" outcome={made} messageRef={messageRef} className={styles.slot} />
      {made?.ok && made.secret && <ShownOnce label="The new signing secret" value={made.secret} />}
    </section>
  );
}

function RollSecret({ row }: { row: SecretRow }) {
  const [rolled, roll, rolling] = useActionState<KeyResult, FormData>(rollSecretAction, null);
  const messageRef = useRef<HTMLParagraphElement>(null);
  useRefreshOn(rolled);
  const overlapId = useId();
  return (
    <div className={styles.inlineForm}>
      {row.signing && !row.expiresAt && (
        <form action={roll} className={styles.inlineForm}>
          <input type="hidden" name="secretId" value={row.id} />
          <label htmlFor={overlapId}>Old secret signs on</label>
          <select id={overlapId} name="overlap" defaultValue="24h">
            {Object.entries(ROLL_OVERLAPS).map(([value, { label }]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
          <button type="submit" className="btn btn-secondary" aria-busy={rolling || undefined}>
            Roll<span className="visually-hidden"> secret {row.prefix}</span>
          </button>
        </form>
      )}
      <ActionOutcome name={`Roll ${row.prefix}`} outcome={rolled} messageRef={messageRef} className={styles.slot} />
      {rolled?.ok && rolled.secret && <ShownOnce label={`The secret replacing ${row.prefix}`} value={rolled.secret} />}
    </div>
  );
}
