"use server";

import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import type { ActionResult, LoginState, RefundState } from "@/components/backoffice/action-state";
import { describeRefund, describeRefundError } from "@/components/backoffice/refund-errors";
import { refundFields } from "@/components/backoffice/refund-form-schema";
import {
  STAGE_PAGES,
  auditActorOf,
  currentSession,
  requireRecentSignIn,
  requireStaff,
  safeReturnPath,
  sessionToken,
} from "@/components/backoffice/require-staff";
import { describeCancel, describeCancelError, describeResend } from "@/components/backoffice/staff-action-messages";
import type { AuditAction } from "@/lib/audit/actions";
import { recordAudit } from "@/lib/audit/audit";
import { appContext } from "@/lib/checkout/app-context";
import { cancelCheckout } from "@/lib/checkout/cancel-checkout";
import { CheckoutError } from "@/lib/checkout/errors";
import { loadCheckout } from "@/lib/checkout/checkouts";
import { createRefund } from "@/lib/checkout/refunds";
import {
  ApprovalError,
  approveRefund,
  needsApproval,
  rejectRefund,
  requestRefund,
} from "@/lib/refund-approvals/approvals";
import { resendNotification } from "@/lib/checkout/resend-notification";
import { env } from "@/lib/env";
import { clientIp, clientKey } from "@/lib/http/client-address";
import { limitFailures, limits } from "@/lib/http/rate-limit";
import { checkPassword, normalizeEmail, type SignInRefusal } from "@/lib/staff/accounts";
import { checkSecondFactor, secondFactorRequired } from "@/lib/staff/two-step";
import {
  SESSION_COOKIE,
  completeSession,
  endSession,
  endSessionsOf,
  openSession,
  reauthenticate,
  sessionCookieOptions,
  type SignedInStaff,
} from "@/lib/staff/sessions";

/*
 * The back office's mutations. Server actions are CSRF-safe: Next.js refuses a POST whose
 * Origin is not this host, and the session cookie is SameSite=Strict on top. Each action checks
 * the session and the role itself (requireStaff): an action is a public endpoint whatever page
 * rendered its form. Each writes one audit row of what it did (lib/audit).
 */

/*
 * An action's arguments are whatever the client sent, whatever its TypeScript signature says: each
 * action checks it got a form before reading one.
 */
const NOT_A_FORM = "This form could not be read. Reload the page and try again.";
const WRONG = "Wrong email or password.";

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
  const rules = limits();
  let outcome: Awaited<ReturnType<typeof checkPassword>> | undefined;
  const judged = await limitFailures(
    db,
    [
      { key: `login:ip:${clientKey(requestHeaders)}`, rule: rules.loginFailuresPerIp },
      { key: `login:account:${normalizeEmail(email).slice(0, 320)}`, rule: rules.loginFailuresPerAccount },
    ],
    async () => {
      outcome = await checkPassword(db, { email, password, sandbox: env().sandbox });
      return outcome.ok;
    },
  );
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
    return judged.ok
      ? { error: WRONG }
      : { error: `Too many failed sign-ins. Try again in ${Math.ceil(judged.retryAfterSeconds / 60)} min.` };
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
  const rules = limits();
  let kind: Awaited<ReturnType<typeof checkSecondFactor>>;
  // Guesses at codes count with guesses at the password: per address and per account.
  const judged = await limitFailures(
    db,
    [
      { key: `login:ip:${clientKey(requestHeaders)}`, rule: rules.loginFailuresPerIp },
      { key: `login:account:${session.email}`, rule: rules.loginFailuresPerAccount },
    ],
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
      : { error: `Too many failed sign-ins. Try again in ${Math.ceil(judged.retryAfterSeconds / 60)} min.` };
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
  const rules = limits();
  const judged = await limitFailures(
    db,
    [
      { key: `login:ip:${clientKey(requestHeaders)}`, rule: rules.loginFailuresPerIp },
      { key: `login:account:${session.email}`, rule: rules.loginFailuresPerAccount },
    ],
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
      : { error: `Too many failed tries. Try again in ${Math.ceil(judged.retryAfterSeconds / 60)} min.` };
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

const checkoutId = z.string().regex(/^[\w-]{1,64}$/);

const refundForm = refundFields.extend({
  checkoutId,
  // A duplicate payment's attempt; absent for the paying one.
  attemptId: z
    .string()
    .regex(/^pa_[0-9a-f-]{36}$/)
    .optional(),
  // Made by the form once per refund: a double submit or a resent request refunds once.
  refundKey: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/),
});

export async function refundCheckout(_previous: RefundState, formData: FormData): Promise<RefundState> {
  const member = await requireStaff("refunds.create");
  if (!(formData instanceof FormData)) return { ok: false, error: NOT_A_FORM, values: { amount: "", reason: "" } };
  const values = { amount: String(formData.get("amount") ?? ""), reason: String(formData.get("reason") ?? "") };
  const parsed = refundForm.safeParse({
    checkoutId: formData.get("checkoutId") ?? "",
    attemptId: formData.get("attemptId") ?? undefined,
    refundKey: formData.get("refundKey") ?? "",
    ...values,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path[0] === "reason" ? "reason" : issue?.path[0] === "amount" ? "amount" : undefined;
    return {
      ok: false,
      error: field
        ? (issue?.message ?? "Check this field.")
        : "This refund could not be read. Reload the page and try again.",
      field,
      values,
    };
  }
  const { checkoutId, amount, reason, attemptId, refundKey } = parsed.data;
  const ctx = await appContext();
  const checkout = await loadCheckout(ctx, checkoutId);
  if (checkout && needsApproval(amount, checkout.currency, env().refundApprovalAbove)) {
    // Four eyes: recorded, to go to the provider when someone else approves (lib/refund-approvals).
    await requireRecentSignIn("refunds.create", `/backoffice/checkouts/${checkoutId}`);
    const { clientAddress } = await auditActorOf(member);
    await requestRefund(
      ctx,
      member,
      { checkoutId, attemptId, amount, reason, currency: checkout.currency },
      clientAddress,
    );
    return {
      ok: true,
      message: `Above ${env().refundApprovalAbove} ${checkout.currency}, a refund waits for another finance or admin person to approve it. It is asked for; nothing is sent yet.`,
    };
  }
  const result = await (async (): Promise<RefundState & { code?: string }> => {
    try {
      const refund = await createRefund(checkoutId, { amount, reason, attemptId }, "staff", ctx, {
        idempotencyKey: `backoffice-${refundKey}`,
      });
      const told = describeRefund(refund);
      return told.ok ? told : { ...told, values, code: refund.status };
    } catch (err) {
      if (err instanceof CheckoutError) return { ok: false, ...describeRefundError(err), values, code: err.code };
      console.error("backoffice: refund failed", err instanceof Error ? err.message : err);
      return {
        ok: false,
        error:
          "The refund could not be started because of an unexpected error. Check the refunds list before trying again.",
        values,
        code: "internal_error",
      };
    }
  })();
  const { code, ...state } = result;
  await audit(member, "refund.created", checkoutId, state.ok === true, { amount, ...(code ? { reason: code } : {}) });
  return state;
}

const cancelForm = z.object({ checkoutId });

/** Staff cancel a checkout: the merchant API's cancel (ADR 25), recorded as staff in the timeline. */
export async function cancelCheckoutAsStaff(_previous: ActionResult | null, formData: FormData): Promise<ActionResult> {
  const member = await requireStaff("checkouts.cancel");
  if (!(formData instanceof FormData)) return { ok: false, error: NOT_A_FORM };
  const parsed = cancelForm.safeParse({ checkoutId: formData.get("checkoutId") });
  if (!parsed.success) return { ok: false, error: NOT_A_FORM };
  let code: string | undefined;
  let result: ActionResult;
  try {
    const checkout = await cancelCheckout(parsed.data.checkoutId, await appContext(), "staff");
    result = describeCancel(checkout.status);
  } catch (err) {
    code = err instanceof CheckoutError ? err.code : "internal_error";
    if (err instanceof CheckoutError) result = { ok: false, error: describeCancelError(err) };
    else {
      console.error("backoffice: cancel failed", err instanceof Error ? err.message : err);
      result = {
        ok: false,
        error: "The checkout could not be cancelled because of an unexpected error. Reload the page to see its status.",
      };
    }
  }
  await audit(member, "checkout.cancelled", parsed.data.checkoutId, result.ok, code ? { reason: code } : undefined);
  return result;
}

const resendForm = z.object({ checkoutId, notificationId: z.string().regex(/^ntf_[0-9a-f-]{36}$/) });

/** Staff send a notification the outbox gave up on again (the merchant has fixed its endpoint). */
export async function resendNotificationAsStaff(
  _previous: ActionResult | null,
  formData: FormData,
): Promise<ActionResult> {
  const member = await requireStaff("notifications.resend");
  if (!(formData instanceof FormData)) return { ok: false, error: NOT_A_FORM };
  const parsed = resendForm.safeParse({
    checkoutId: formData.get("checkoutId"),
    notificationId: formData.get("notificationId"),
  });
  if (!parsed.success) return { ok: false, error: NOT_A_FORM };
  const { checkoutId, notificationId } = parsed.data;
  let result: ActionResult;
  try {
    result = describeResend(await resendNotification(checkoutId, notificationId, await appContext()));
  } catch (err) {
    console.error("backoffice: resend failed", err instanceof Error ? err.message : err);
    result = { ok: false, error: "The notification could not be put back because of an unexpected error. Try again." };
  }
  await audit(member, "notification.resent", checkoutId, result.ok, { notificationId });
  return result;
}

/** The audit row of a staff action on a checkout: who, from where, and whether it went through. */
async function audit(
  member: SignedInStaff,
  action: AuditAction,
  checkoutId: string,
  ok: boolean,
  detail?: Record<string, string>,
): Promise<void> {
  await recordAudit((await appContext()).db, {
    ...(await auditActorOf(member)),
    action,
    target: { kind: "checkout", id: checkoutId },
    outcome: ok ? "succeeded" : "failed",
    detail,
  });
}

const decisionForm = z.object({
  checkoutId,
  requestId: z.string().regex(/^rr_[0-9a-f-]{36}$/),
  decision: z.enum(["approve", "reject"]),
});

/** The second pair of eyes: approve (the refund goes to the provider now) or reject a refund request. */
export async function decideRefundRequest(_previous: ActionResult | null, formData: FormData): Promise<ActionResult> {
  const member = await requireStaff("refunds.create");
  if (!(formData instanceof FormData)) return { ok: false, error: NOT_A_FORM };
  const parsed = decisionForm.safeParse({
    checkoutId: formData.get("checkoutId"),
    requestId: formData.get("requestId"),
    decision: formData.get("decision"),
  });
  if (!parsed.success) return { ok: false, error: NOT_A_FORM };
  const { checkoutId, requestId, decision } = parsed.data;
  await requireRecentSignIn("refunds.create", `/backoffice/checkouts/${checkoutId}`);
  const ctx = await appContext();
  const { clientAddress } = await auditActorOf(member);
  try {
    if (decision === "reject") {
      await rejectRefund(ctx, member, requestId, clientAddress);
      return { ok: true, message: "The refund request is rejected: nothing was sent." };
    }
    const refund = await approveRefund(ctx, member, requestId, clientAddress);
    const told = describeRefund(refund);
    return told.ok ? { ok: true, message: `Approved. ${told.message}` } : { ok: false, error: told.error };
  } catch (err) {
    if (err instanceof ApprovalError) {
      await recordAudit(ctx.db, {
        actor: { kind: "staff", id: member.id, label: member.email },
        action: decision === "reject" ? "refund.rejected" : "refund.approved",
        target: { kind: "checkout", id: checkoutId },
        outcome: "refused",
        detail: { request: requestId, reason: err.code },
        clientAddress,
      });
      return { ok: false, error: err.message };
    }
    if (err instanceof CheckoutError) return { ok: false, error: describeRefundError(err).error };
    console.error("backoffice: refund decision failed", err instanceof Error ? err.message : err);
    return { ok: false, error: "The decision could not be made because of an unexpected error. Reload the page." };
  }
}
