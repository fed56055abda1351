"use server";

import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import type { ActionResult, LoginState, RefundState } from "@/components/backoffice/action-state";
import { describeRefund, describeRefundError } from "@/components/backoffice/refund-errors";
import { refundFields } from "@/components/backoffice/refund-form-schema";
import { requireStaff } from "@/components/backoffice/require-staff";
import { describeCancel, describeCancelError, describeResend } from "@/components/backoffice/staff-action-messages";
import { appContext } from "@/lib/checkout/app-context";
import { cancelCheckout } from "@/lib/checkout/cancel-checkout";
import { CheckoutError } from "@/lib/checkout/errors";
import { createRefund } from "@/lib/checkout/refunds";
import { resendNotification } from "@/lib/checkout/resend-notification";
import { env } from "@/lib/env";
import { clientKey } from "@/lib/http/client-address";
import { limitFailures, limits } from "@/lib/http/rate-limit";
import {
  SESSION_COOKIE,
  endAllSessions,
  endSession,
  openSession,
  passwordMatches,
  sessionCookieOptions,
} from "@/lib/http/staff-session";

/*
 * The back office's only mutations. Server actions are CSRF-safe: Next.js refuses a POST whose
 * Origin is not this host, and the session cookie is SameSite=Strict on top. Each action checks
 * the session itself: an action is a public endpoint whatever page rendered its form.
 */

/*
 * An action's arguments are whatever the client sent, whatever its TypeScript signature says: each
 * action checks it got a form before reading one.
 */
const NOT_A_FORM = "This form could not be read. Reload the page and try again.";

export async function login(_previous: LoginState, formData: FormData): Promise<LoginState> {
  if (!(formData instanceof FormData)) return { error: NOT_A_FORM };
  // Failed logins per client address (ADR 10): guessing stops, a colleague who typed well does not.
  const key = `login:ip:${clientKey(await headers())}`;
  const rule = limits().loginFailuresPerIp;
  const { db } = await appContext();
  const password = formData.get("password");
  const judged = await limitFailures(
    db,
    key,
    rule,
    () => typeof password === "string" && password !== "" && passwordMatches(password, env().backofficePassword),
  );
  if (!judged.ok)
    return { error: `Too many wrong passwords. Try again in ${Math.ceil(judged.retryAfterSeconds / 60)} min.` };
  if (!judged.passed) return { error: "Wrong password" };
  (await cookies()).set(
    SESSION_COOKIE,
    await openSession(db, env().backofficePassword),
    sessionCookieOptions(env().appUrl),
  );
  redirect("/backoffice");
}

/** Ends this browser's session: the cookie goes, and so does its row, so a copy of it opens nothing. */
export async function logout(): Promise<void> {
  const jar = await cookies();
  await endSession((await appContext()).db, jar.get(SESSION_COOKIE)?.value);
  jar.delete({ name: SESSION_COOKIE, path: "/" });
  redirect("/backoffice/login");
}

/** Ends every staff session, in every browser (a lost laptop, a colleague who left). */
export async function logoutEverywhere(): Promise<void> {
  await requireStaff();
  await endAllSessions((await appContext()).db);
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
  await requireStaff();
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
  try {
    const refund = await createRefund(checkoutId, { amount, reason, attemptId }, "staff", await appContext(), {
      idempotencyKey: `backoffice-${refundKey}`,
    });
    const told = describeRefund(refund);
    return told.ok ? told : { ...told, values };
  } catch (err) {
    if (err instanceof CheckoutError) return { ok: false, ...describeRefundError(err), values };
    console.error("backoffice: refund failed", err instanceof Error ? err.message : err);
    return {
      ok: false,
      error:
        "The refund could not be started because of an unexpected error. Check the refunds list before trying again.",
      values,
    };
  }
}

const cancelForm = z.object({ checkoutId });

/** Staff cancel a checkout: the merchant API's cancel (ADR 25), recorded as staff in the timeline. */
export async function cancelCheckoutAsStaff(_previous: ActionResult | null, formData: FormData): Promise<ActionResult> {
  await requireStaff();
  if (!(formData instanceof FormData)) return { ok: false, error: NOT_A_FORM };
  const parsed = cancelForm.safeParse({ checkoutId: formData.get("checkoutId") });
  if (!parsed.success) return { ok: false, error: NOT_A_FORM };
  try {
    const checkout = await cancelCheckout(parsed.data.checkoutId, await appContext(), "staff");
    return describeCancel(checkout.status);
  } catch (err) {
    if (err instanceof CheckoutError) return { ok: false, error: describeCancelError(err) };
    console.error("backoffice: cancel failed", err instanceof Error ? err.message : err);
    return {
      ok: false,
      error: "The checkout could not be cancelled because of an unexpected error. Reload the page to see its status.",
    };
  }
}

const resendForm = z.object({ checkoutId, notificationId: z.string().regex(/^ntf_[0-9a-f-]{36}$/) });

/** Staff send a notification the outbox gave up on again (the merchant has fixed its endpoint). */
export async function resendNotificationAsStaff(
  _previous: ActionResult | null,
  formData: FormData,
): Promise<ActionResult> {
  await requireStaff();
  if (!(formData instanceof FormData)) return { ok: false, error: NOT_A_FORM };
  const parsed = resendForm.safeParse({
    checkoutId: formData.get("checkoutId"),
    notificationId: formData.get("notificationId"),
  });
  if (!parsed.success) return { ok: false, error: NOT_A_FORM };
  try {
    const { checkoutId, notificationId } = parsed.data;
    return describeResend(await resendNotification(checkoutId, notificationId, await appContext()));
  } catch (err) {
    console.error("backoffice: resend failed", err instanceof Error ? err.message : err);
    return { ok: false, error: "The notification could not be put back because of an unexpected error. Try again." };
  }
}
