import type { SandboxContext } from "./context";
import { projectById, settingsOf } from "./projects";
import { ERROR_CODES, groupOf, isFinal, statusField } from "./statuses";
import type { ChangeSource, PaymentRecord, RefundRecord, StatusGroup, StatusKind } from "./store";

/**
 * Every status change of payments and refunds goes through here: the history, the hosted flow
 * ending, and the webhook on a final status.
 */

/** The PAYMENT webhook body in the payment's own API version, serialised once: the signature covers these bytes. */
export function paymentWebhookBody(payment: PaymentRecord): string {
  const status = statusField(payment.version, payment.statusKind, payment.statusCode);
  return JSON.stringify({ id: payment.id, ...status, statusGroup: payment.statusGroup, type: "PAYMENT" });
}

/** The PAYMENT_REFUND webhook body; the refund id is a string here (provider-api.md 7). */
export function refundWebhookBody(refund: RefundRecord): string {
  return JSON.stringify({
    id: String(refund.id),
    paymentId: refund.paymentId,
    statusGroup: refund.statusGroup,
    type: "PAYMENT_REFUND",
  });
}

function webhookDelayMs(ctx: SandboxContext, projectId: string): number {
  const project = projectById(ctx.store.projects, projectId);
  return project ? settingsOf(project).webhookDelayInSec * 1000 : 0;
}

export interface StatusUpdate {
  kind: StatusKind;
  code: string;
  /** Derived from the code when absent. */
  group?: StatusGroup;
  errorCodes?: number[];
  source: ChangeSource;
  /** Console and control API: send the webhook even when the group does not change. */
  forced?: boolean;
}

export function setPaymentStatus(ctx: SandboxContext, payment: PaymentRecord, update: StatusUpdate) {
  const project = projectById(ctx.store.projects, payment.projectId);
  const acspCompleted = project ? settingsOf(project).isACSPCompletedStatus : false;
  const group = update.group ?? groupOf(update.kind, update.code, acspCompleted);
  const now = ctx.now();
  const groupChanged = group !== payment.statusGroup;
  payment.statusKind = update.kind;
  payment.statusCode = update.code;
  payment.statusGroup = group;
  payment.errorCodes = update.errorCodes ?? (isFinal(group) ? payment.errorCodes : []);
  payment.updatedAt = now;
  payment.history.push({
    at: now,
    kind: update.kind,
    code: update.code,
    group,
    errorCodes: payment.errorCodes,
    source: update.source,
  });
  if (group === "completed") payment.completedAt ??= now;
  if (group !== "pending") delete payment.pendingUntil;
  if (isFinal(group)) {
    payment.step = "done";
    ctx.store.unsettled.payments.delete(payment);
  } else {
    ctx.store.unsettled.payments.add(payment);
  }

  if (isFinal(group) && (groupChanged || update.forced) && payment.webhookUrl !== undefined) {
    ctx.webhooks.enqueue(
      {
        type: "PAYMENT",
        projectId: payment.projectId,
        paymentId: payment.id,
        url: payment.webhookUrl,
        rawBody: paymentWebhookBody(payment),
      },
      webhookDelayMs(ctx, payment.projectId),
    );
  }
  ctx.changed();
}

export function setRefundStatus(ctx: SandboxContext, refund: RefundRecord, group: StatusGroup) {
  const changed = group !== refund.statusGroup;
  refund.statusGroup = group;
  refund.updatedAt = ctx.now();
  if (group !== "started") delete refund.completeAt;
  if (isFinal(group)) ctx.store.unsettled.refunds.delete(refund);
  else ctx.store.unsettled.refunds.add(refund);
  if (changed && isFinal(group) && refund.webhookUrl !== "") {
    ctx.webhooks.enqueue(
      {
        type: "PAYMENT_REFUND",
        projectId: refund.projectId,
        paymentId: refund.paymentId,
        refundId: refund.id,
        url: refund.webhookUrl,
        rawBody: refundWebhookBody(refund),
      },
      webhookDelayMs(ctx, refund.projectId),
    );
  }
  ctx.changed();
}

/**
 * Moves on whatever is due by the sandbox clock: links that expired before a decision, approvals
 * that were pending for their time, refunds whose delay passed. Runs on a timer and before every
 * request, so time travel takes effect at once.
 */
export function runDueTransitions(ctx: SandboxContext) {
  const now = ctx.now();
  for (const payment of ctx.store.unsettled.payments) {
    if (payment.statusGroup === "started" && now >= payment.expiresAt) {
      const kind = payment.statusKind;
      setPaymentStatus(ctx, payment, {
        kind,
        code: kind === "bank" ? "CANC" : "expired",
        group: "failed",
        errorCodes: [ERROR_CODES.expired],
        source: "sandbox",
      });
    } else if (payment.statusGroup === "pending" && payment.pendingUntil !== undefined && now >= payment.pendingUntil) {
      setPaymentStatus(ctx, payment, { kind: "bank", code: "ACSC", source: "sandbox" });
    }
  }
  for (const refund of ctx.store.unsettled.refunds) {
    if (refund.statusGroup === "started" && refund.completeAt !== undefined && now >= refund.completeAt) {
      setRefundStatus(ctx, refund, "completed");
    }
  }
}
