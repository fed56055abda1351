"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import type { ActionResult } from "@/components/backoffice/action-state";
import { auditActorOf, requireRecentSignIn } from "@/components/backoffice/require-staff";
import { staffWords } from "@/components/backoffice/staff-locale";
import type { AuditAction } from "@/lib/audit/actions";
import { recordAudit } from "@/lib/audit/audit";
import { appContext } from "@/lib/checkout/app-context";
import { env } from "@/lib/env";
import { clientIp, clientKey } from "@/lib/http/client-address";
import { limitFailures, limits } from "@/lib/http/rate-limit";
import { linkRefusalText, staffText } from "@/lib/i18n/staff-messages";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, passwordRuleBroken } from "@/lib/staff/password-rules";
import {
  StaffError,
  changeRole,
  inviteStaff,
  linkHolder,
  resetPasswordLink,
  setDisabled,
  setPasswordFromLink,
  type StaffCall,
} from "@/lib/staff/accounts";
import { ROLES } from "@/lib/staff/roles";
import { resetSecondFactor } from "@/lib/staff/two-step";

/*
 * The admins' changes to staff, and a person setting their password from a one-time link. Each
 * change writes its audit row in its own transaction (lib/staff/accounts.ts); a refusal changes
 * nothing and is said on the page.
 */

/** What an invitation or a password reset answers: the one-time link, shown once. */
export type LinkResult = (ActionResult & { link?: string; staffId?: string }) | null;

const NOT_A_FORM = "This form could not be read. Reload the page and try again.";
const staffId = z.string().regex(/^st_[0-9a-f-]{36}$/);
const role = z.enum(ROLES as [string, ...string[]], { error: "Choose a role." });

async function adminCall(): Promise<StaffCall> {
  const member = await requireRecentSignIn("staff.manage", "/backoffice/staff");
  return { db: (await appContext()).db, ...(await auditActorOf(member)) };
}

const linkOf = (token: string) => `${env().appUrl}/backoffice/set-password/${token}`;

/**
 * A change refused or failed: nothing changed (its transaction rolled back), and the audit trail
 * says who tried what and why it did not happen.
 */
async function refusal(
  err: unknown,
  what: string,
  call: StaffCall,
  action: AuditAction,
  targetId?: string,
): Promise<ActionResult> {
  const known = err instanceof StaffError;
  if (!known) console.error(`backoffice: ${what} failed`, err instanceof Error ? err.message : err);
  await recordAudit(call.db, {
    actor: call.actor,
    action,
    target: targetId ? { kind: "staff", id: targetId } : undefined,
    outcome: known ? "refused" : "failed",
    detail: { reason: known ? err.code : "internal_error" },
    clientAddress: call.clientAddress,
  });
  return known
    ? { ok: false, error: err.message }
    : { ok: false, error: `The ${what} could not be made because of an unexpected error. Try again.` };
}

export async function inviteStaffAction(_previous: LinkResult, formData: FormData): Promise<LinkResult> {
  const call = await adminCall();
  if (!(formData instanceof FormData)) return { ok: false, error: NOT_A_FORM };
  const parsed = z
    .object({ email: z.string().max(320), role })
    .safeParse({ email: formData.get("email"), role: formData.get("role") });
  if (!parsed.success) return { ok: false, error: parsed.error.issues[0]?.message ?? NOT_A_FORM };
  try {
    const { member, token } = await inviteStaff(call, parsed.data);
    return {
      ok: true,
      message: `${member.email} is invited. Send them this link to set their password; it works once, for 24 hours, and is shown only now.`,
      link: linkOf(token),
      staffId: member.id,
    };
  } catch (err) {
    return refusal(err, "invitation", call, "staff.invited");
  }
}

export async function resetLinkAction(_previous: LinkResult, formData: FormData): Promise<LinkResult> {
  const call = await adminCall();
  if (!(formData instanceof FormData)) return { ok: false, error: NOT_A_FORM };
  const parsed = staffId.safeParse(formData.get("staffId"));
  if (!parsed.success) return { ok: false, error: NOT_A_FORM };
  try {
    const token = await resetPasswordLink(call, parsed.data);
    return {
      ok: true,
      message: "A new link to set a password: it works once, for 24 hours, and is shown only now.",
      link: linkOf(token),
    };
  } catch (err) {
    return refusal(err, "link", call, "staff.password_reset", parsed.data);
  }
}

export async function changeRoleAction(_previous: ActionResult | null, formData: FormData): Promise<ActionResult> {
  const call = await adminCall();
  if (!(formData instanceof FormData)) return { ok: false, error: NOT_A_FORM };
  const parsed = z
    .object({ staffId, role })
    .safeParse({ staffId: formData.get("staffId"), role: formData.get("role") });
  if (!parsed.success) return { ok: false, error: NOT_A_FORM };
  try {
    const member = await changeRole(call, parsed.data.staffId, parsed.data.role);
    return { ok: true, message: `${member.email} is now ${member.role}. Their sessions have ended.` };
  } catch (err) {
    return refusal(err, "role change", call, "staff.role_changed", parsed.data.staffId);
  }
}

export async function setDisabledAction(_previous: ActionResult | null, formData: FormData): Promise<ActionResult> {
  const call = await adminCall();
  if (!(formData instanceof FormData)) return { ok: false, error: NOT_A_FORM };
  const parsed = z
    .object({ staffId, disabled: z.enum(["true", "false"]) })
    .safeParse({ staffId: formData.get("staffId"), disabled: formData.get("disabled") });
  if (!parsed.success) return { ok: false, error: NOT_A_FORM };
  try {
    const member = await setDisabled(call, parsed.data.staffId, parsed.data.disabled === "true");
    return {
      ok: true,
      message: member.disabledAt
        ? `${member.email} is disabled: signed out everywhere, and cannot sign in.`
        : `${member.email} can sign in again.`,
    };
  } catch (err) {
    return refusal(
      err,
      "change",
      call,
      parsed.data.disabled === "true" ? "staff.disabled" : "staff.enabled",
      parsed.data.staffId,
    );
  }
}

/** A person lost their phone: their two-step sign-in is turned off; they set it up again at sign-in. */
export async function resetSecondFactorAction(
  _previous: ActionResult | null,
  formData: FormData,
): Promise<ActionResult> {
  const call = await adminCall();
  if (!(formData instanceof FormData)) return { ok: false, error: NOT_A_FORM };
  const parsed = staffId.safeParse(formData.get("staffId"));
  if (!parsed.success) return { ok: false, error: NOT_A_FORM };
  try {
    await resetSecondFactor(call, parsed.data);
    return { ok: true, message: "Two-step sign-in is reset: they are signed out, and set it up again at sign-in." };
  } catch (err) {
    return refusal(err, "reset", call, "staff.second_factor_reset", parsed.data);
  }
}

/**
 * A person sets their password from their one-time link, then signs in. Anyone can post this
 * form: a link that does not work counts as a failure per client address (ADR 14; one that works
 * takes its hit back), and writes no audit row, which the table, never pruned, would keep for ever.
 * The password set is written (lib/staff/accounts.ts), as the person whose link it was.
 */
export async function setPasswordAction(_previous: ActionResult | null, formData: FormData): Promise<ActionResult> {
  if (!(formData instanceof FormData)) return { ok: false, error: NOT_A_FORM };
  const token = formData.get("token");
  const password = formData.get("password");
  if (typeof token !== "string" || typeof password !== "string") return { ok: false, error: NOT_A_FORM };
  const { db } = await appContext();
  const requestHeaders = await headers();
  // Said in the person's own language: they are not signed in, and may not read English.
  const t = await staffWords();
  const judged = await limitFailures(
    db,
    [{ key: `set-password:ip:${clientKey(requestHeaders)}`, rule: limits().loginFailuresPerIp }],
    async () => (await linkHolder(db, token)).ok,
  );
  if (!judged.ok)
    return { ok: false, error: staffText(t, "signIn.tooMany", { minutes: Math.ceil(judged.retryAfterSeconds / 60) }) };
  try {
    await setPasswordFromLink(db, { token, password, clientAddress: clientIp(requestHeaders) });
  } catch (err) {
    if (!(err instanceof StaffError)) {
      console.error("backoffice: password failed", err instanceof Error ? err.message : err);
      return { ok: false, error: t["setPassword.failed"] };
    }
    const words = linkRefusalText(t, err.code, passwordRuleBroken(password), {
      min: MIN_PASSWORD_LENGTH,
      max: MAX_PASSWORD_LENGTH,
    });
    return { ok: false, error: words ?? err.message };
  }
  redirect("/backoffice/login?password=set");
}
