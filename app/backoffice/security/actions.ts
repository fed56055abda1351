"use server";

import type { PublicKeyCredentialCreationOptionsJSON } from "@simplewebauthn/server";
import { redirect } from "next/navigation";
import type { ActionResult } from "@/components/backoffice/action-state";
import { auditActorOf, currentSession, sessionToken } from "@/components/backoffice/require-staff";
import { recordAudit } from "@/lib/audit/audit";
import { appContext } from "@/lib/checkout/app-context";
import { StaffError } from "@/lib/staff/accounts";
import { env } from "@/lib/env";
import { jsonFormField } from "@/lib/http/body";
import {
  addPasskey,
  registrationOptions,
  registrationResponse,
  relyingParty,
  removePasskey,
} from "@/lib/staff/passkeys";
import { completeSession, signedInRecently } from "@/lib/staff/sessions";
import { confirmEnrolment } from "@/lib/staff/two-step";

export type EnrolResult = (ActionResult & { codes?: string[] }) | null;

/**
 * Turns two-step sign-in on with a code from the app, for a person signed in or one whose role
 * requires it before anything else; answers the recovery codes, shown once.
 */
export async function confirmEnrolmentAction(_previous: EnrolResult, formData: FormData): Promise<EnrolResult> {
  const { session, token } = await waysInSession();
  if (!(formData instanceof FormData)) return { ok: false, error: "This form could not be read. Reload the page." };
  const code = formData.get("code");
  if (typeof code !== "string") return { ok: false, error: "Enter the code from your app." };
  const { db, config } = await appContext();
  const who = await auditActorOf(session);
  try {
    const codes = await confirmEnrolment({ db, keys: config.tokenKeys, ...who }, session, code.slice(0, 16));
    if (session.stage === "enrol") await completeSession(db, token);
    return {
      ok: true,
      message:
        "Two-step sign-in is on. Keep these recovery codes somewhere safe: each works once, if your phone is lost. They are shown only now.",
      codes,
    };
  } catch (err) {
    if (!(err instanceof StaffError)) throw err;
    await recordAudit(db, {
      ...who,
      action: "staff.second_factor_enrolled",
      target: { kind: "staff", id: session.id },
      outcome: "refused",
      detail: { reason: err.code },
    });
    return { ok: false, error: err.message };
  }
}

/**
 * The person's own session for changing their ways in (passkeys, the authenticator app): a full one
 * signed in within 5 minutes (recent sign-in: each is a way in that outlives the session), or one
 * that must set up a second step and just gave its password.
 */
async function waysInSession() {
  const session = await currentSession();
  const token = await sessionToken();
  if (!session || !token || session.stage === "second_factor") redirect("/backoffice/login");
  if (!signedInRecently(session)) redirect("/backoffice/confirm?next=/backoffice/security");
  return { session, token };
}

/** A challenge for the browser to make a new passkey with. */
export async function passkeyRegistrationOptions(): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const { session } = await waysInSession();
  const { db } = await appContext();
  return registrationOptions(db, relyingParty(env().appUrl), session);
}

/**
 * Keeps the new passkey the browser made (the form's `answer`, JSON, and `name`); a person who had
 * to set up a second step has one now.
 */
export async function addPasskeyAction(form: FormData): Promise<ActionResult> {
  const { session, token } = await waysInSession();
  if (!(form instanceof FormData)) return { ok: false, error: "The passkey could not be read. Try again." };
  const response = registrationResponse.safeParse(jsonFormField(form, "answer"));
  const name = form.get("name");
  if (!response.success || typeof name !== "string")
    return { ok: false, error: "The passkey could not be read. Try again." };
  const { db } = await appContext();
  const who = await auditActorOf(session);
  try {
    const added = await addPasskey({ db, rp: relyingParty(env().appUrl), ...who }, session, response.data, name);
    if (session.stage === "enrol") await completeSession(db, token);
    return { ok: true, message: `Passkey “${added.name}” added. You can sign in with it, without your password.` };
  } catch (err) {
    if (!(err instanceof StaffError)) throw err;
    await recordAudit(db, {
      ...who,
      action: "staff.passkey_added",
      target: { kind: "staff", id: session.id },
      outcome: "refused",
      detail: { reason: err.code },
    });
    return { ok: false, error: err.message };
  }
}

/** Removes one of the person's own passkeys (the form's `passkeyId`). */
export async function removePasskeyAction(form: FormData): Promise<ActionResult> {
  const { session } = await waysInSession();
  const passkeyId = form instanceof FormData ? form.get("passkeyId") : null;
  if (session.stage !== "full" || typeof passkeyId !== "string") return { ok: false, error: "No such passkey." };
  const { db } = await appContext();
  try {
    await removePasskey({ db, ...(await auditActorOf(session)) }, session, passkeyId.slice(0, 1400));
    return { ok: true, message: "Passkey removed." };
  } catch (err) {
    if (!(err instanceof StaffError)) throw err;
    return { ok: false, error: err.message };
  }
}
