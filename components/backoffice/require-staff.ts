import "server-only";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { appContext } from "@/lib/checkout/app-context";
import { env } from "@/lib/env";
import { SESSION_COOKIE, sessionIsValid } from "@/lib/http/staff-session";

/** Whether this request carries the cookie of an open staff session. */
export async function hasStaffSession(): Promise<boolean> {
  const token = (await cookies()).get(SESSION_COOKIE)?.value;
  return sessionIsValid((await appContext()).db, token, env().backofficePassword);
}

/**
 * Every back-office page and action calls this first. Checked on the server for each request (a
 * layout alone is not enough: client navigations may not re-render it).
 */
export async function requireStaff(): Promise<void> {
  if (!(await hasStaffSession())) redirect("/backoffice/login");
}
