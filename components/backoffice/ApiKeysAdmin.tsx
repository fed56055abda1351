"use client";

import { useActionState, useId, useRef } from "react";
import { createKeyAction, revokeKeyAction, rollKeyAction, type KeyResult } from "@/app/backoffice/api-keys/actions";
import { API_SCOPES, ROLL_OVERLAPS, SCOPE_LABELS } from "@/lib/api-keys/scopes";
import type { ActionResult } from "./action-state";
import { ActionOutcome } from "./ActionOutcome";
import { DataTable } from "./DataTable";
import { ShownOnce, useRefreshOn } from "./shown-once";
import { None, Time } from "./detail-parts";
import styles from "./backoffice.module.css";

export interface KeyRow {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  status: "active" | "ending" | "ended" | "revoked";
}

const STATUS: Record<KeyRow["status"], string> = {
  active: "Active",
  ending: "Rolled, still working until",
  ended: "Ended",
  revoked: "Revoked",
};

/** The admins' API keys: make one (shown once), roll with an overlap, revoke. */
export function ApiKeysAdmin({ keys }: { keys: KeyRow[] }) {
  return (
    <>
      <CreateKeyForm />
      <DataTable
        caption="API keys, newest first"
        empty="No API keys made here yet."
        head={["Name", "Key", "Scopes", "Status", "Made", "Last used", "Actions"]}
        rows={keys.map((k) => ({
          key: k.id,
          cells: [
            k.name,
            <span key="p" className={styles.code}>
              {k.prefix}…
            </span>,
            k.scopes.join(", "),
            <span key="s">
              {STATUS[k.status]}
              {k.status === "ending" && k.expiresAt && (
                <>
                  {" "}
                  <Time iso={k.expiresAt} />
                </>
              )}
            </span>,
            <Time key="c" iso={k.createdAt} />,
            k.lastUsedAt ? <Time key="u" iso={k.lastUsedAt} /> : <None key="n" />,
            // Mounted for every row: a roll's new key, shown once, stays on the page while the list
            // reads again and the old row ends.
            <KeyActions key="a" row={k} />,
          ],
        }))}
      />
    </>
  );
}

function CreateKeyForm() {
  const [outcome, create, pending] = useActionState<KeyResult, FormData>(createKeyAction, null);
  const messageRef = useRef<HTMLParagraphElement>(null);
  useRefreshOn(outcome);
  return (
    <form action={create} className={`card ${styles.form}`} aria-labelledby="new-key-heading">
      <h2 id="new-key-heading">Make a key</h2>
      <div className="field">
        <label htmlFor="key-name">Name</label>
        <input id="key-name" name="name" required maxLength={80} placeholder="Shop backend" />
      </div>
      <fieldset>
        <legend>Scopes</legend>
        {API_SCOPES.map((s) => (
          <label key={s} className={styles.checkLine}>
            <input type="checkbox" name="scopes" value={s} defaultChecked={s === "checkouts:read"} />{" "}
            <span className={styles.code}>{s}</span>: {SCOPE_LABELS[s]}
          </label>
        ))}
      </fieldset>
      <button type="submit" className="btn btn-primary" aria-busy={pending || undefined}>
        Make key
      </button>
      <ActionOutcome name="Make key" outcome={outcome} messageRef={messageRef} className={styles.slot} />
      {outcome?.ok && outcome.secret && <ShownOnce label="The new API key" value={outcome.secret} />}
    </form>
  );
}

function KeyActions({ row }: { row: KeyRow }) {
  const [rolled, roll, rolling] = useActionState<KeyResult, FormData>(rollKeyAction, null);
  const [revoked, revoke, revoking] = useActionState<ActionResult | null, FormData>(revokeKeyAction, null);
  const rollRef = useRef<HTMLParagraphElement>(null);
  const revokeRef = useRef<HTMLParagraphElement>(null);
  useRefreshOn(rolled);
  useRefreshOn(revoked);
  const overlapId = useId();
  return (
    <div className={styles.inlineForm}>
      {row.status === "active" && (
        <form action={roll} className={styles.inlineForm}>
          <input type="hidden" name="keyId" value={row.id} />
          <label htmlFor={overlapId}>Old key keeps working</label>
          <select id={overlapId} name="overlap" defaultValue="24h">
            {Object.entries(ROLL_OVERLAPS).map(([value, { label }]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
          <button type="submit" className="btn btn-secondary" aria-busy={rolling || undefined}>
            Roll<span className="visually-hidden"> {row.name}</span>
          </button>
        </form>
      )}
      {(row.status === "active" || row.status === "ending") && (
        <form action={revoke}>
          <input type="hidden" name="keyId" value={row.id} />
          <button type="submit" className="btn btn-secondary" aria-busy={revoking || undefined}>
            Revoke<span className="visually-hidden"> {row.name}</span>
          </button>
        </form>
      )}
      <ActionOutcome name={`Roll ${row.name}`} outcome={rolled} messageRef={rollRef} className={styles.slot} />
      <ActionOutcome name={`Revoke ${row.name}`} outcome={revoked} messageRef={revokeRef} className={styles.slot} />
      {rolled?.ok && rolled.secret && <ShownOnce label={`The new key for ${row.name}`} value={rolled.secret} />}
    </div>
  );
}
