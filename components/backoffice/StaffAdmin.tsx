"use client";

import { useActionState, useId, useRef } from "react";
import {
  changeRoleAction,
  inviteStaffAction,
  resetLinkAction,
  resetSecondFactorAction,
  setDisabledAction,
  type LinkResult,
} from "@/app/backoffice/staff/actions";
import { ROLE_LABELS, ROLES } from "@/lib/staff/roles";
import type { StaffMember } from "@/lib/staff/accounts";
import type { ActionResult } from "./action-state";
import { ActionOutcome } from "./ActionOutcome";
import { DataTable } from "./DataTable";
import { ShownOnce, useRefreshOn } from "./shown-once";
import { Time } from "./detail-parts";
import styles from "./backoffice.module.css";

/** The admins' page of staff: invite someone, then per person their role, disable or enable, a new link. */
export function StaffAdmin({ people, selfId }: { people: StaffMember[]; selfId: string }) {
  return (
    <>
      <InviteForm />
      <DataTable
        caption="Staff"
        empty="No staff yet."
        head={["Email", "Role", "Status", "Added", "Actions"]}
        rows={people.map((p) => ({
          key: p.id,
          cells: [
            <span key="e">
              {p.email}
              {p.id === selfId && <span className="muted"> (you)</span>}
            </span>,
            <RoleForm key="r" person={p} />,
            [p.disabledAt ? "Disabled" : p.hasPassword ? "Active" : "Invited", p.twoStep ? " · two-step on" : ""].join(
              "",
            ),
            <Time key="t" iso={p.createdAt.toISOString()} />,
            <PersonActions key="a" person={p} />,
          ],
        }))}
      />
    </>
  );
}

function InviteForm() {
  const [outcome, invite, pending] = useActionState<LinkResult, FormData>(inviteStaffAction, null);
  const messageRef = useRef<HTMLParagraphElement>(null);
  useRefreshOn(outcome);
  return (
    <form action={invite} className={`card ${styles.form}`} aria-labelledby="invite-heading">
      <h2 id="invite-heading">Invite a person</h2>
      <div className="field">
        <label htmlFor="invite-email">Email</label>
        <input id="invite-email" name="email" type="email" autoComplete="off" required />
      </div>
      <div className="field">
        <label htmlFor="invite-role">Role</label>
        <select id="invite-role" name="role" defaultValue="viewer">
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {ROLE_LABELS[r].name}: {ROLE_LABELS[r].may}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" className="btn btn-primary" aria-busy={pending || undefined}>
        Invite
      </button>
      <ActionOutcome name="Invite" outcome={outcome} messageRef={messageRef} className={styles.slot} />
      {outcome?.ok && outcome.link && (
        <ShownOnce label="Link to set a password" value={outcome.link} copy="Copy link" />
      )}
    </form>
  );
}

function RoleForm({ person }: { person: StaffMember }) {
  const [outcome, change, pending] = useActionState<ActionResult | null, FormData>(changeRoleAction, null);
  const messageRef = useRef<HTMLParagraphElement>(null);
  useRefreshOn(outcome);
  const id = useId();
  return (
    <form action={change} className={styles.inlineForm}>
      <input type="hidden" name="staffId" value={person.id} />
      <label htmlFor={id} className="visually-hidden">
        Role of {person.email}
      </label>
      <select id={id} name="role" defaultValue={person.role} key={person.role}>
        {ROLES.map((r) => (
          <option key={r} value={r}>
            {ROLE_LABELS[r].name}
          </option>
        ))}
      </select>
      <button type="submit" className="btn btn-secondary" aria-busy={pending || undefined}>
        Change role<span className="visually-hidden"> of {person.email}</span>
      </button>
      <ActionOutcome
        name={`Role of ${person.email}`}
        outcome={outcome}
        messageRef={messageRef}
        className={styles.slot}
      />
    </form>
  );
}

function PersonActions({ person }: { person: StaffMember }) {
  const [outcome, toggle, pending] = useActionState<ActionResult | null, FormData>(setDisabledAction, null);
  const [link, newLink, linkPending] = useActionState<LinkResult, FormData>(resetLinkAction, null);
  const [reset, resetTwoStep, resetPending] = useActionState<ActionResult | null, FormData>(
    resetSecondFactorAction,
    null,
  );
  const resetRef = useRef<HTMLParagraphElement>(null);
  const messageRef = useRef<HTMLParagraphElement>(null);
  const linkRef = useRef<HTMLParagraphElement>(null);
  useRefreshOn(outcome);
  useRefreshOn(reset);
  const disable = !person.disabledAt;
  return (
    <div className={styles.inlineForm}>
      <form action={toggle}>
        <input type="hidden" name="staffId" value={person.id} />
        <input type="hidden" name="disabled" value={String(disable)} />
        <button type="submit" className="btn btn-secondary" aria-busy={pending || undefined}>
          {disable ? "Disable" : "Enable"}
          <span className="visually-hidden"> {person.email}</span>
        </button>
      </form>
      {disable && (
        <form action={newLink}>
          <input type="hidden" name="staffId" value={person.id} />
          <button type="submit" className="btn btn-secondary" aria-busy={linkPending || undefined}>
            New password link<span className="visually-hidden"> for {person.email}</span>
          </button>
        </form>
      )}
      {person.twoStep && (
        <form action={resetTwoStep}>
          <input type="hidden" name="staffId" value={person.id} />
          <button type="submit" className="btn btn-secondary" aria-busy={resetPending || undefined}>
            Reset two-step sign-in<span className="visually-hidden"> of {person.email}</span>
          </button>
        </form>
      )}
      <ActionOutcome
        name={`Two-step sign-in of ${person.email}`}
        outcome={reset}
        messageRef={resetRef}
        className={styles.slot}
      />
      <ActionOutcome
        name={`Access of ${person.email}`}
        outcome={outcome}
        messageRef={messageRef}
        className={styles.slot}
      />
      <ActionOutcome name={`Link for ${person.email}`} outcome={link} messageRef={linkRef} className={styles.slot} />
      {link?.ok && link.link && <ShownOnce label="Link to set a password" value={link.link} copy="Copy link" />}
    </div>
  );
}
