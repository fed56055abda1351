"use server";

import { redirect } from "next/navigation";
import type { ActionResult } from "@/components/backoffice/action-state";
import { auditActorOf, currentSession, sessionToken } from "@/components/backoffice/require-staff";
import { recordAudit } from "@/lib/audit/audit";
import { appContext } from "@/lib/checkout/app-context";
import { StaffError } from "@/lib/staff/accounts";
import { completeSession } from "@/lib/staff/sessions";
import { confirmEnrolment } from "@/lib/staff/two-step";

export type EnrolResult = (ActionResult & { codes?: string[] }) | null;

/**
 * Turns two-step sign-in on with a code from the app, for a person signed in or one whose role
 * requires it before anything else; answers the recovery codes, shown once.
 */
export async function confirmEnrolmentAction(_previous: EnrolResult, formData: FormData): Promise<EnrolResult> {
  const session = await currentSession();
  const token = await sessionToken();
  if (!session || !token || session.stage === "second_factor") redirect("/backoffice/login");
  if (!(formData instanceof FormData)) return { ok: false, error: "This form could not be read. Reload the page." };
  const code = formData.get("code");
  if (typeof code !== "string") return { ok: false, error: "Enter the code from your app." };
  const { db, config } = await appContext();
  const who = await auditActorOf(session);
  try {
    const codes = await confirmEnrolment({ db, keys: config.tokenKeys, ...who }, session.id, code.slice(0, 16));
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
