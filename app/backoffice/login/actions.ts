"use server";

import type { PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/server";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import type { LoginState } from "@/components/backoffice/action-state";
import {
  STAGE_PAGES,
  auditActorOf,
  currentSession,
  requireStaff,
  safeReturnPath,
  sessionToken,
} from "@/components/backoffice/require-staff";
import { staffWords } from "@/components/backoffice/staff-locale";
import { recordAudit } from "@/lib/audit/audit";
import { staffText, type StaffMessages } from "@/lib/i18n/staff-messages";
import { appContext } from "@/lib/checkout/app-context";
import { databaseUnavailable } from "@/lib/db/unavailable";
import { env } from "@/lib/env";
import { clientIp, clientKey } from "@/lib/http/client-address";
import { hit, limitFailures, limits, type Hit } from "@/lib/http/rate-limit";
import { checkPassword, normalizeEmail } from "@/lib/staff/accounts";
import { jsonFormField } from "@/lib/http/body";
import {
  SESSION_COOKIE,
  completeSession,
  endSession,
  endSessionsOf,
  openSession,
  reauthenticate,
  sessionCookieOptions,
} from "@/lib/staff/sessions";
import { authenticationOptions, authenticationResponse, checkPasskey, relyingParty } from "@/lib/staff/passkeys";
import { checkSecondFactor, secondFactorRequired } from "@/lib/staff/two-step";

/*
 * Signing in and out of the back office: the password, the second step, recent sign-in again, and
 * signing out. Server actions are CSRF-safe (Next.js refuses a POST whose Origin is not this host,
 * and the session cookie is SameSite=Strict). Each writes its audit row (lib/audit).
 */

/**
 * Failed sign-ins, wrong codes and failed confirmations count together, per client address and
 * per account (ADR 10, 27): guessing stops whether from one address or many; a colleague who typed
 * well uses up nothing.
 *
 * The audit trail cannot be pruned, so what anyone on the internet can post must not add a row
 * each time: a try the limit refused writes none (the limit's count is its record), nor does a
 * failure that names no account (an unknown email, a passkey of nobody's). A known account's
 * failures within its limits are written.
 */
function signInHits(requestHeaders: Headers, email?: string): Hit[] {
  const rules = limits();
  const perIp = { key: `login:ip:${clientKey(requestHeaders)}`, rule: rules.loginFailuresPerIp };
  // A passkey offered without a session names nobody until it is checked: per address only.
  if (email === undefined) return [perIp];
  return [perIp, { key: `login:account:${normalizeEmail(email).slice(0, 320)}`, rule: rules.loginFailuresPerAccount }];
}

const tooMany = (t: StaffMessages, seconds: number) =>
  staffText(t, "signIn.tooMany", { minutes: Math.ceil(seconds / 60) });

/**
 * Signing in with a password. A database that does not answer (a restart, a failover) is said on
 * the form, which keeps what was typed, rather than by the error page; no session was opened.
 */
export async function login(previous: LoginState, formData: FormData): Promise<LoginState> {
  try {
    return await signIn(previous, formData);
  } catch (err) {
    if (!databaseUnavailable(err)) throw err; // the redirect that follows a sign-in among them
    return { error: (await staffWords())["signIn.away"] };
  }
}

async function signIn(_previous: LoginState, formData: FormData): Promise<LoginState> {
  const t = await staffWords();
  if (!(formData instanceof FormData)) return { error: t["signIn.notAForm"] };
  const email = formData.get("email");
  const password = formData.get("password");
  if (typeof email !== "string" || typeof password !== "string" || !email.trim() || !password)
    return { error: t["signIn.wrong"] };
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
  if (!judged.ok) return { error: tooMany(t, judged.retryAfterSeconds) };
  if (!outcome?.ok) {
    if (outcome?.staffId)
      await recordAudit(db, {
        actor: { kind: "staff", id: outcome.staffId, label: normalizeEmail(email) },
        action: "staff.sign_in",
        outcome: "failed",
        detail: { reason: outcome.reason },
        clientAddress,
      });
    return { error: t["signIn.wrong"] };
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
  const t = await staffWords();
  if (!(formData instanceof FormData)) return { error: t["signIn.notAForm"] };
  const code = formData.get("code");
  if (typeof code !== "string" || !code.trim()) return { error: t["code.enter"] };
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
  if (!judged.ok) return { error: tooMany(t, judged.retryAfterSeconds) };
  if (!kind) {
    await recordAudit(db, {
      actor,
      action: "staff.sign_in",
      outcome: "failed",
      detail: { reason: "wrong_code" },
      clientAddress,
    });
    return { error: t["code.wrong"] };
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
  const t = await staffWords();
  if (!(formData instanceof FormData)) return { error: t["signIn.notAForm"] };
  const secret = formData.get("secret");
  if (typeof secret !== "string" || !secret) return { error: t["confirm.enter"] };
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
  if (!judged.ok) return { error: tooMany(t, judged.retryAfterSeconds) };
  if (!judged.passed) {
    await recordAudit(db, {
      ...who,
      action: "staff.reauthenticated",
      outcome: "failed",
      detail: { reason: "wrong_secret" },
    });
    return { error: t["confirm.wrong"] };
  }
  await reauthenticate(db, token);
  await recordAudit(db, { ...who, action: "staff.reauthenticated", outcome: "succeeded" });
  redirect(safeReturnPath(formData.get("next")));
}

/*
 * Passkeys (ADR 29): the same three doors as above (sign in, the second step, recent sign-in),
 * each asked for a challenge first, then answered with the device's signature. Signing in with a
 * passkey alone is both steps: the device checked the person's PIN or face.
 */

const passkeyStep = z.enum(["sign_in", "second_factor", "confirm"]);

/** The session a passkey step needs: none to sign in, the one owing its second step, or a full one. */
async function sessionFor(step: z.infer<typeof passkeyStep>) {
  if (step === "sign_in") return undefined;
  const session = await currentSession();
  const token = await sessionToken();
  const wanted = step === "second_factor" ? "second_factor" : "full";
  if (!session || !token || session.stage !== wanted) redirect("/backoffice/login");
  return { session, token };
}

/**
 * A challenge for the browser to sign with a passkey. Rate limited per address: each is a row.
 * Like every back-office action it takes a form (proxy.ts lets only multipart bodies through).
 */
export async function passkeyOptions(
  form: FormData,
): Promise<{ options: PublicKeyCredentialRequestOptionsJSON } | { error: string }> {
  const parsed = passkeyStep.safeParse(form instanceof FormData ? form.get("step") : undefined);
  const t = await staffWords();
  if (!parsed.success) return { error: t["signIn.notAForm"] };
  const signedIn = await sessionFor(parsed.data);
  const { db } = await appContext();
  const asked = await hit(db, `passkey:options:${clientKey(await headers())}`, { limit: 30, windowMs: 5 * 60_000 });
  if (!asked.ok) return { error: tooMany(t, asked.retryAfterSeconds) };
  const options = await authenticationOptions(db, relyingParty(env().appUrl), parsed.data, signedIn?.session.id);
  return { options };
}

/**
 * The device's answer to a passkey challenge (the form's `answer`, JSON): signs in, completes the
 * second step, or confirms and goes back to `next`.
 */
export async function answerPasskey(form: FormData): Promise<LoginState> {
  const t = await staffWords();
  if (!(form instanceof FormData)) return { error: t["passkey.failed"] };
  const parsedStep = passkeyStep.safeParse(form.get("step"));
  const response = authenticationResponse.safeParse(jsonFormField(form, "answer"));
  if (!parsedStep.success || !response.success) return { error: t["passkey.failed"] };
  const signedIn = await sessionFor(parsedStep.data);
  const { db } = await appContext();
  const requestHeaders = await headers();
  const clientAddress = clientIp(requestHeaders);
  let outcome: Awaited<ReturnType<typeof checkPasskey>>;
  // Failures count with the password's: per address, and per account once one is known.
  const judged = await limitFailures(
    db,
    signInHits(requestHeaders, signedIn?.session.email),
    async () =>
      !!(outcome = await checkPasskey(db, relyingParty(env().appUrl), {
        purpose: parsedStep.data,
        response: response.data,
        staffId: signedIn?.session.id,
        sandbox: env().sandbox,
      })),
  );
  const action = parsedStep.data === "confirm" ? "staff.reauthenticated" : "staff.sign_in";
  if (!judged.ok) return { error: tooMany(t, judged.retryAfterSeconds) };
  if (!outcome) {
    if (signedIn)
      await recordAudit(db, {
        actor: { kind: "staff", id: signedIn.session.id, label: signedIn.session.email },
        action,
        outcome: "failed",
        detail: { reason: "passkey_refused" },
        clientAddress,
      });
    return { error: t["passkey.failed"] };
  }
  await recordAudit(db, {
    actor: { kind: "staff", id: outcome.staffId, label: outcome.email },
    action,
    outcome: "succeeded",
    detail:
      parsedStep.data === "sign_in"
        ? { method: "passkey", passkey: outcome.passkey }
        : { second_factor: "passkey", passkey: outcome.passkey },
    clientAddress,
  });
  if (!signedIn) {
    (await cookies()).set(SESSION_COOKIE, await openSession(db, outcome.staffId), sessionCookieOptions(env().appUrl));
    redirect("/backoffice");
  }
  if (parsedStep.data === "second_factor") {
    await completeSession(db, signedIn.token);
    redirect("/backoffice");
  }
  await reauthenticate(db, signedIn.token);
  redirect(safeReturnPath(form.get("next")));
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
