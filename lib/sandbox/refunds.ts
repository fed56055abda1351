import { z } from "zod";
import type { ApiCall } from "./call";
import { apiErrors, readBody } from "./http";
import { checkWebhookUrl } from "./params";
import { ownPayment } from "./payments";
import { settingsOf } from "./projects";
import { paymentRefunds, type RefundRecord } from "./store";
import { amount, fromCents, parseBody, toCents } from "./validation";

/**
 * Refunds (provider-api.md 4.5, D-ref): integer ids, completed payments only, EUR and PLN only,
 * repeatable until the refunds add up to the paid amount (failed refunds do not count). A refund
 * starts `started` and completes after the configured delay, or fails when the console says so.
 */

const REFUND_CURRENCIES = ["EUR", "PLN"];
const DAY_MS = 24 * 3600 * 1000;

/** `yyyy-MM-dd'T'HH:mm:ss.SSS'Z'`, the JVM client's format. */
function timestamp(ms: number): string {
  return new Date(ms).toISOString();
}

export function refundJson(refund: RefundRecord) {
  return {
    id: refund.id,
    paymentId: refund.paymentId,
    amount: refund.amount,
    statusGroup: refund.statusGroup,
    webhookUrl: refund.webhookUrl,
    createdAt: timestamp(refund.createdAt),
  };
}

const refundBody = z.object({ amount });

/** POST /pis/payment/{id}/refunds. */
export async function createRefund(call: ApiCall, paymentId: string) {
  const { ctx, project } = call;
  const payment = ownPayment(call, paymentId);
  const webhookUrl = checkWebhookUrl(call);
  const body = parseBody(await readBody(call.req), refundBody, (m) => apiErrors.invalidRequest(m));

  if (payment.statusGroup !== "completed") throw apiErrors.refundNotAllowed("Only completed payments can be refunded.");
  const method = payment.statusKind === "card" ? "card" : "bank";
  const settings = settingsOf(project);
  if (!settings.allowedRefundsFor.includes(method))
    throw apiErrors.refundNotAllowed(`The project cannot refund ${method} payments.`);
  if (!REFUND_CURRENCIES.includes(payment.currencyCode))
    throw apiErrors.refundCurrencyNotSupported(payment.currencyCode);
  const dayLimit = method === "card" ? settings.cardRefundDayLimit : settings.bankRefundDayLimit;
  if (ctx.now() > (payment.completedAt ?? payment.createdAt) + dayLimit * DAY_MS) {
    throw apiErrors.refundNotAllowed(`Refunds are possible for ${dayLimit} days after the payment.`);
  }
  const refunded = paymentRefunds(ctx.store, payment.id)
    .filter((r) => r.statusGroup !== "failed")
    .reduce((sum, r) => sum + toCents(r.amount), 0);
  const available = toCents(payment.amount) - refunded;
  if (toCents(body.amount) > available) throw apiErrors.refundAmountExceeded(fromCents(Math.max(0, available)));

  const now = ctx.now();
  ctx.store.counters.refund += 1;
  const refund: RefundRecord = {
    id: ctx.store.counters.refund,
    paymentId: payment.id,
    projectId: project.id,
    amount: body.amount,
    currencyCode: payment.currencyCode,
    statusGroup: "started",
    // Without its own Webhook-URL a refund reports to the payment's, so the merchant still hears of it.
    webhookUrl: webhookUrl ?? payment.webhookUrl ?? "",
    createdAt: now,
    updatedAt: now,
    completeAt: now + ctx.settings.refundDelayMs,
  };
  ctx.store.refunds.set(refund.id, refund);
  ctx.store.unsettled.refunds.add(refund);
  ctx.changed();
  return refundJson(refund);
}

/** GET /pis/payment/{id}/refunds. */
export function listRefunds(call: ApiCall, paymentId: string) {
  const payment = ownPayment(call, paymentId);
  return { data: paymentRefunds(call.ctx.store, payment.id).map(refundJson) };
}
