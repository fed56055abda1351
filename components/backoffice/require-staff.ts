import "server-only";
import { cookies, headers } from "next/headers";
import { forbidden, redirect } from "next/navigation";
import { cache } from "react";
import type { AuditActor } from "@/lib/audit/audit";
import { appContext } from "@/lib/checkout/app-context";
import { orDatabaseAway } from "@/lib/db/unavailable";
import { clientIp } from "@/lib/http/client-address";
import { allows, type StaffAction } from "@/lib/staff/roles";
import { SESSION_COOKIE, sessionOf, signedInRecently, type SignedInStaff } from "@/lib/staff/sessions";

/** This request's session token, as the cookie holds it. */
export async function sessionToken(): Promise<string | undefined> {
  return (await cookies()).get(SESSION_COOKIE)?.value;
}

/**
 * The session of this request whatever step it is at (read once per request), or undefined. Every
 * back-office page and action reads it first, so a database that does not answer (a restart, a
 * failover) shows here as the error page that says so and tries again by itself (lib/db/unavailable.ts).
 */
export const currentSession = cache(async (): Promise<SignedInStaff | undefined> => {
  const token = await sessionToken();
  return orDatabaseAway(async () => sessionOf((await appContext()).db, token));
});

/** The person signed in all the way (password and any second step), or undefined. */
export async function currentStaff(): Promise<SignedInStaff | undefined> {
  const session = await currentSession();
  return session?.stage === "full" ? session : undefined;
}

/** Where a session that still owes a step is sent: the one page that takes it. */
export const STAGE_PAGES = { second_factor: "/backoffice/login/code", enrol: "/backoffice/security" } as const;

/**
 * Every back-office page and action calls this first with what it is about to do (the one table,
 * lib/staff/roles.ts). Checked on the server for each request (a layout alone is not enough:
 * client navigations may not re-render it): no session goes to the sign-in page, a step still owed
 * to its page, and a role that may not gets 403, whatever button the page showed.
 */
export async function requireStaff(action: StaffAction): Promise<SignedInStaff> {
  const member = await currentSession();
  if (!member) redirect("/backoffice/login");
  if (member.stage !== "full") redirect(STAGE_PAGES[member.stage]);
  if (!allows(member.role, action)) forbidden();
  return member;
}

/** Back-office pages a confirmation may return to: ours only, never another site. */
const OWN_PAGE = /^\/backoffice(\/[A-Za-z0-9_/-]*)?$/;
export const safeReturnPath = (path: unknown) =>
  typeof path === "string" && OWN_PAGE.test(path) ? path : "/backoffice";

/**
 * For the changes that matter most (API keys, staff, large refunds): the person must have given
 * their password or a code in the last 5 minutes, or is sent to confirm it and brought back to
 * `returnTo` (recent sign-in, "sudo mode").
 */
export async function requireRecentSignIn(action: StaffAction, returnTo: string): Promise<SignedInStaff> {
  const member = await requireStaff(action);
  if (!signedInRecently(member)) redirect(`/backoffice/confirm?next=${encodeURIComponent(safeReturnPath(returnTo))}`);
  return member;
}

/** Who the audit trail names for what this person does from this request. */
export async function auditActorOf(member: SignedInStaff): Promise<{ actor: AuditActor; clientAddress: string }> {
  return {
    actor: { kind: "staff", id: member.id, label: member.email },
    clientAddress: clientIp(await headers()),
  };
}
