"use server";

import { z } from "zod";
import type { ActionResult, RefundState } from "@/components/backoffice/action-state";
import { describeRefund, describeRefundError } from "@/components/backoffice/refund-errors";
import { refundFields } from "@/components/backoffice/refund-form-schema";
import { auditActorOf, requireRecentSignIn, requireStaff } from "@/components/backoffice/require-staff";
import { describeCancel, describeCancelError, describeResend } from "@/components/backoffice/staff-action-messages";
import type { AuditAction } from "@/lib/audit/actions";
import { recordAudit } from "@/lib/audit/audit";
import { appContext } from "@/lib/checkout/app-context";
import { cancelCheckout } from "@/lib/checkout/cancel-checkout";
import { loadCheckout } from "@/lib/checkout/checkouts";
import { CheckoutError } from "@/lib/checkout/errors";
import { createRefund } from "@/lib/checkout/refunds";
import { resendNotification } from "@/lib/checkout/resend-notification";
import { env } from "@/lib/env";
import {
  ApprovalError,
  ApprovalNeeded,
  approvalGate,
  approveRefund,
  needsApproval,
  rejectRefund,
  requestRefund,
} from "@/lib/refund-approvals/approvals";
import type { SignedInStaff } from "@/lib/staff/sessions";

/*
 * The back office's changes to checkouts: refunds (and their four-eyes approval), cancels and
 * notifications sent again. Server actions are CSRF-safe: Next.js refuses a POST whose Origin is
 * not this host, and the session cookie is SameSite=Strict on top. Each action checks the session
 * and the role itself (requireStaff): an action is a public endpoint whatever page rendered its
 * form. Each writes one audit row of what it did (lib/audit). Signing in and out: login/actions.ts.
 */

/*
 * An action's arguments are whatever the client sent, whatever its TypeScript signature says: each
 * action checks it got a form before reading one.
 */
const NOT_A_FORM = "This form could not be read. Reload the page and try again.";

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
  const above = env().refundApprovalAbove;
  // Four eyes: asked for, to go to the provider when someone else approves (lib/refund-approvals).
  const askForApproval = async (currency: string): Promise<RefundState> => {
    await requireRecentSignIn("refunds.create", `/backoffice/checkouts/${checkoutId}`);
    const { clientAddress } = await auditActorOf(member);
    try {
      await requestRefund(ctx, member, { checkoutId, attemptId, amount, reason, currency }, clientAddress);
    } catch (err) {
      // Refused as a refund made now would be (more than is left, not paid): no request recorded.
      if (!(err instanceof CheckoutError)) throw err;
      await audit(member, "refund.requested", checkoutId, false, { amount, reason: err.code });
      return { ok: false, ...describeRefundError(err), values };
    }
    return {
      ok: true,
      message: `With this one, this checkout's refunds come to more than ${above} ${currency}, so it waits for another finance or admin person to approve it. It is asked for; nothing is sent yet.`,
    };
  };
  if (checkout && (await needsApproval(ctx.db, { checkoutId, amount, currency: checkout.currency }, above)))
    return askForApproval(checkout.currency);
  // Counted again under the checkout's lock, the refund may turn out to need approval after all
  // (ApprovalNeeded): then it is asked for, and no refund is audited as made or refused.
  const result = await (async (): Promise<(RefundState & { code?: string }) | ApprovalNeeded> => {
    try {
      const refund = await createRefund(checkoutId, { amount, reason, attemptId }, "staff", ctx, {
        idempotencyKey: `backoffice-${refundKey}`,
        // Counted again under the checkout's lock: another refund may have been made since.
        underLock: checkout && approvalGate(checkoutId, checkout.currency, above),
      });
      const told = describeRefund(refund);
      return told.ok ? told : { ...told, values, code: refund.status };
    } catch (err) {
      if (err instanceof ApprovalNeeded) return err;
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
  if (result instanceof ApprovalNeeded) return askForApproval(result.currency);
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
        // The request's own checkout, not the form's (which only says where to go back to).
        target: err.checkoutId ? { kind: "checkout", id: err.checkoutId } : { kind: "refund_request", id: requestId },
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
