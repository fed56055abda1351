"use server";

import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import type { LoginState } from "@/components/backoffice/action-state";
import {
  STAGE_PAGES,
  auditActorOf,
  currentSession,
  requireStaff,
  safeReturnPath,
  sessionToken,
} from "@/components/backoffice/require-staff";
import { recordAudit } from "@/lib/audit/audit";
import { appContext } from "@/lib/checkout/app-context";
import { env } from "@/lib/env";
import { clientIp, clientKey } from "@/lib/http/client-address";
import { limitFailures, limits, type Hit } from "@/lib/http/rate-limit";
import { checkPassword, normalizeEmail, type SignInRefusal } from "@/lib/staff/accounts";
import {
  SESSION_COOKIE,
  completeSession,
  endSession,
  endSessionsOf,
  openSession,
  reauthenticate,
  sessionCookieOptions,
} from "@/lib/staff/sessions";
import { checkSecondFactor, secondFactorRequired } from "@/lib/staff/two-step";

/*
 * Signing in and out of the back office: the password, the second step, recent sign-in again, and
 * signing out. Server actions are CSRF-safe (Next.js refuses a POST whose Origin is not this host,
 * and the session cookie is SameSite=Strict). Each writes its audit row (lib/audit).
 */

const NOT_A_FORM = "This form could not be read. Reload the page and try again.";
const WRONG = "Wrong email or password.";

/**
 * Failed sign-ins, wrong codes and failed confirmations count together, per client address and
 * per account (ADR 10, 27): guessing stops whether from one address or many; a colleague who typed
 * well uses up nothing.
 */
function signInHits(requestHeaders: Headers, email: string): Hit[] {
  const rules = limits();
  return [
    { key: `login:ip:${clientKey(requestHeaders)}`, rule: rules.loginFailuresPerIp },
    { key: `login:account:${normalizeEmail(email).slice(0, 320)}`, rule: rules.loginFailuresPerAccount },
  ];
}

const tooMany = (seconds: number) => `Too many failed tries. Try again in ${Math.ceil(seconds / 60)} min.`;

export async function login(_previous: LoginState, formData: FormData): Promise<LoginState> {
  if (!(formData instanceof FormData)) return { error: NOT_A_FORM };
  const email = formData.get("email");
  const password = formData.get("password");
  if (typeof email !== "string" || typeof password !== "string" || !email.trim() || !password) return { error: WRONG };
  const requestHeaders = await headers();
  const { db } = await appContext();
  const clientAddress = clientIp(requestHeaders);
  // Failed sign-ins per client address and per account (ADR 10, 27): guessing stops, whether from
  // one address or many; a colleague who typed well uses up nothing.
  let outcome: Awaited<ReturnType<typeof checkPassword>> | undefined;
  const judged = await limitFailures(db, signInHits(requestHeaders, email), async () => {
    outcome = await checkPassword(db, { email, password, sandbox: env().sandbox });
    return outcome.ok;
  });
  if (!judged.ok || !outcome?.ok) {
    const reason: SignInRefusal | "rate_limited" = outcome && !outcome.ok ? outcome.reason : "rate_limited";
    const staffId = outcome && !outcome.ok ? outcome.staffId : undefined;
    await recordAudit(db, {
      // An unknown address is not written down: people type their password into the email field.
      actor: staffId ? { kind: "staff", id: staffId, label: normalizeEmail(email) } : { kind: "anonymous" },
      action: "staff.sign_in",
      outcome: judged.ok ? "failed" : "refused",
      detail: { reason },
      clientAddress,
    });
    return judged.ok ? { error: WRONG } : { error: tooMany(judged.retryAfterSeconds) };
  }
  const { member } = outcome;
  // A second step still owed opens only its own page: a code, or setting the app up (ADR 27).
  const stage = member.twoStep
    ? "second_factor"
    : secondFactorRequired(member, env().staff2faRequiredRoles)
      ? "enrol"
      : "full";
  if (stage !== "second_factor")
    await recordAudit(db, {
      actor: { kind: "staff", id: member.id, label: member.email },
      action: "staff.sign_in",
      outcome: "succeeded",
      detail: stage === "enrol" ? { second_factor: "enrolment_required" } : undefined,
      clientAddress,
    });
  (await cookies()).set(
    SESSION_COOKIE,
    await openSession(db, member.id, { stage }),
    sessionCookieOptions(env().appUrl),
  );
  redirect(stage === "full" ? "/backoffice" : STAGE_PAGES[stage]);
}

/** The second step of signing in: a code from the app, or a recovery code. */
export async function verifySecondFactor(_previous: LoginState, formData: FormData): Promise<LoginState> {
  const session = await currentSession();
  const token = await sessionToken();
  if (!session || !token || session.stage !== "second_factor") redirect("/backoffice/login");
  if (!(formData instanceof FormData)) return { error: NOT_A_FORM };
  const code = formData.get("code");
  if (typeof code !== "string" || !code.trim()) return { error: "Enter the code from your app." };
  const { db, config } = await appContext();
  const requestHeaders = await headers();
  let kind: Awaited<ReturnType<typeof checkSecondFactor>>;
  // Guesses at codes count with guesses at the password: per address and per account.
  const judged = await limitFailures(
    db,
    signInHits(requestHeaders, session.email),
    async () => !!(kind = await checkSecondFactor(db, session.id, code.slice(0, 64), config.tokenKeys)),
  );
  const actor = { kind: "staff", id: session.id, label: session.email } as const;
  const clientAddress = clientIp(requestHeaders);
  if (!judged.ok || !kind) {
    await recordAudit(db, {
      actor,
      action: "staff.sign_in",
      outcome: judged.ok ? "failed" : "refused",
      detail: { reason: judged.ok ? "wrong_code" : "rate_limited" },
      clientAddress,
    });
    return judged.ok
      ? { error: "That code is not right. Type the 6 digits your app shows now, or a recovery code." }
      : { error: tooMany(judged.retryAfterSeconds) };
  }
  await completeSession(db, token);
  await recordAudit(db, {
    actor,
    action: "staff.sign_in",
    outcome: "succeeded",
    detail: { second_factor: kind },
    clientAddress,
  });
  redirect("/backoffice");
}

/**
 * Recent sign-in: the person signed in gives their password, or a code if two-step sign-in is on,
 * again, and goes back to the change they were making.
 */
export async function confirmIdentity(_previous: LoginState, formData: FormData): Promise<LoginState> {
  const session = await currentSession();
  const token = await sessionToken();
  if (!session || !token || session.stage !== "full") redirect("/backoffice/login");
  if (!(formData instanceof FormData)) return { error: NOT_A_FORM };
  const secret = formData.get("secret");
  if (typeof secret !== "string" || !secret) return { error: "Enter your password or a code." };
  const { db, config } = await appContext();
  const requestHeaders = await headers();
  const judged = await limitFailures(
    db,
    signInHits(requestHeaders, session.email),
    async () =>
      (await checkPassword(db, { email: session.email, password: secret, sandbox: env().sandbox })).ok ||
      !!(await checkSecondFactor(db, session.id, secret.slice(0, 64), config.tokenKeys)),
  );
  const who = {
    actor: { kind: "staff", id: session.id, label: session.email } as const,
    clientAddress: clientIp(requestHeaders),
  };
  if (!judged.ok || !judged.passed) {
    await recordAudit(db, {
      ...who,
      action: "staff.reauthenticated",
      outcome: judged.ok ? "failed" : "refused",
      detail: { reason: judged.ok ? "wrong_secret" : "rate_limited" },
    });
    return judged.ok
      ? { error: "That is not your password, nor a code of yours." }
      : { error: tooMany(judged.retryAfterSeconds) };
  }
  await reauthenticate(db, token);
  await recordAudit(db, { ...who, action: "staff.reauthenticated", outcome: "succeeded" });
  redirect(safeReturnPath(formData.get("next")));
}

/** Ends this browser's session: the cookie goes, and so does its row, so a copy of it opens nothing. */
export async function logout(): Promise<void> {
  const jar = await cookies();
  const { db } = await appContext();
  const member = await currentSession();
  if (member)
    await recordAudit(db, { ...(await auditActorOf(member)), action: "staff.sign_out", outcome: "succeeded" });
  await endSession(db, jar.get(SESSION_COOKIE)?.value);
  jar.delete({ name: SESSION_COOKIE, path: "/" });
  redirect("/backoffice/login");
}

/** Ends every session of the person signed in, in every browser (a lost laptop). */
export async function logoutEverywhere(): Promise<void> {
  const member = await requireStaff("checkouts.view");
  const { db } = await appContext();
  await recordAudit(db, {
    ...(await auditActorOf(member)),
    action: "staff.sign_out_everywhere",
    outcome: "succeeded",
  });
  await endSessionsOf(db, member.id);
  (await cookies()).delete({ name: SESSION_COOKIE, path: "/" });
  redirect("/backoffice/login?ended=all");
}
