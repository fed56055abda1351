import "server-only";
import { cookies, headers } from "next/headers";
import { forbidden, redirect } from "next/navigation";
import { cache } from "react";
import type { AuditActor } from "@/lib/audit/audit";
import { appContext } from "@/lib/checkout/app-context";
import { clientIp } from "@/lib/http/client-address";
import { allows, type StaffAction } from "@/lib/staff/roles";
import { SESSION_COOKIE, sessionOf, type SignedInStaff } from "@/lib/staff/sessions";

/** The person this request's session belongs to (read once per request), or undefined. */
export const currentStaff = cache(async (): Promise<SignedInStaff | undefined> => {
  const token = (await cookies()).get(SESSION_COOKIE)?.value;
  return sessionOf((await appContext()).db, token);
});

/**
 * Every back-office page and action calls this first with what it is about to do (the one table,
 * lib/staff/roles.ts). Checked on the server for each request (a layout alone is not enough:
 * client navigations may not re-render it): no session goes to the sign-in page, a role that may
 * not do it gets 403, whatever button the page showed.
 */
export async function requireStaff(action: StaffAction): Promise<SignedInStaff> {
  const member = await currentStaff();
  if (!member) redirect("/backoffice/login");
  if (!allows(member.role, action)) forbidden();
  return member;
}

/** Who the audit trail names for what this person does from this request. */
export async function auditActorOf(member: SignedInStaff): Promise<{ actor: AuditActor; clientAddress: string }> {
  return {
    actor: { kind: "staff", id: member.id, label: member.email },
    clientAddress: clientIp(await headers()),
  };
}
