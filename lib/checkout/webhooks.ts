import { sql } from "drizzle-orm";
import { prepared } from "../db/prepared";
import { webhookEvents } from "../db/schema";
import type { ErrorCode } from "../errors";
import { PisError, verifyWebhook, type NormalisedStatus } from "../pis";
import { applyWebhookStatus } from "./apply-status";
import { nowOf, webhookUrl, type CheckoutContext } from "./context";
import { applyRefundStatus, recordRefundMadeElsewhere } from "./refund-status";
import { isAttemptId } from "./ids";

/**
 * A webhook is a signal (the provider's own advice, provider-api.md 7): its body has no failure
 * codes, and it may be stale or reordered. A failure is final, so it is read from the status
 * endpoint, which has the codes and the truth: a payment the bank still holds (a failure
 * delivered late, or again) must not be closed, or its completion could never land and the payer
 * would be asked to pay twice. Null when the provider cannot say (unreachable, failing, or refusing
 * the read itself, e.g. 429): the delivery is then refused, and comes again.
 */
async function withDetails(
  ctx: CheckoutContext,
  paymentId: string,
  status: NormalisedStatus,
): Promise<NormalisedStatus | null> {
  if (status.group !== "failed") return status;
  try {
    return await ctx.pis.payments.status(paymentId);
  } catch (err) {
    if (!(err instanceof PisError)) throw err;
    // It does not know the payment (not ours, or gone): the delivery's own status is applied, and
    // only a payment of ours is changed by it. Any other answer (429, 401, a 5xx, none) says
    // nothing about the payment, so the delivery is refused and comes again.
    if (err.notFound) return status;
    return null;
  }
}

const storeEvent = prepared((db) =>
  db
    .insert(webhookEvents)
    .values({
      type: sql.placeholder("type"),
      providerPaymentId: sql.placeholder("providerPaymentId"),
      signatureValid: true,
      outcome: sql.placeholder("outcome"),
      rawBody: sql.placeholder("rawBody"),
    })
    .prepare("store_webhook_event"),
);

export interface WebhookResult {
  /** Why the delivery is refused (anything but 200 makes the provider deliver it again); null: taken. */
  refusal: Extract<ErrorCode, `webhook_${string}` | "provider_error"> | null;
  outcome: string;
  /** Signed with our secret: from the provider. Anything else is from someone pretending to be. */
  authentic: boolean;
}

/**
 * Takes one provider webhook as received. Every signed delivery is stored for audit; one that is
 * not signed with our secret is refused before anything is written (anyone can send those, and
 * storing them would let them fill the database). An unknown payment is answered 404 so the
 * provider retries rather than the event being lost.
 */
/** A payment's status from a signed delivery, applied to its attempt; `audited`: kept with the change. */
async function applyPaymentWebhook(
  c: CheckoutContext,
  paymentId: string,
  attemptId: string | undefined,
  status: NormalisedStatus,
  rawBody: string,
): Promise<{ result: WebhookResult; audited: boolean }> {
  const audit = { type: "PAYMENT", providerPaymentId: paymentId, signatureValid: true, rawBody };
  let { outcome, audited } = await applyWebhookStatus(c, { providerPaymentId: paymentId }, status, audit);
  // A payment whose initiation we never finished recording: its Webhook-URL names the attempt.
  if (outcome === "unknown_attempt" && attemptId) {
    ({ outcome, audited } = await applyWebhookStatus(
      c,
      { attemptId, bind: { providerPaymentId: paymentId } },
      status,
      audit,
    ));
  }
  const result: WebhookResult =
    outcome === "unknown_attempt"
      ? { refusal: "webhook_unknown_payment", outcome: "unknown_payment", authentic: true }
      : { refusal: null, outcome, authentic: true };
  return { result, audited };
}

export async function receivePisWebhook(
  rawBody: string,
  headers: Headers,
  c: CheckoutContext,
  query: URLSearchParams = new URLSearchParams(),
): Promise<WebhookResult> {
  // The provider signs over the exact Webhook-URL we gave it, our attempt id included (ADR 13); only
  // an id of ours is looked up by.
  const attemptParam = query.get("attempt") ?? undefined;
  const attemptId = attemptParam !== undefined && isAttemptId(attemptParam) ? attemptParam : undefined;
  const verdict = verifyWebhook({
    rawBody,
    headers,
    url: webhookUrl(c, attemptParam),
    secret: c.config.webhookSecret,
    now: nowOf(c).getTime(),
  });

  let result: WebhookResult;
  let type: string | null = null;
  let paymentId: string | null = null;
  if (!verdict.ok && verdict.reason !== "malformed") {
    return { refusal: "webhook_unsigned", outcome: `rejected_${verdict.reason}`, authentic: false };
  }
  let audited = false;
  // Postgres text cannot hold U+0000, which a signed but malformed body may: kept as its escape.
  const rawBodyKept = rawBody.slice(0, 64 * 1024).replaceAll("\0", "\\u0000");
  if (!verdict.ok) {
    result = { refusal: "webhook_malformed", outcome: `rejected_${verdict.reason}`, authentic: true };
  } else if (verdict.event.type === "PAYMENT") {
    type = "PAYMENT";
    paymentId = verdict.event.paymentId;
    const status = await withDetails(c, verdict.event.paymentId, verdict.event.status);
    if (status) ({ result, audited } = await applyPaymentWebhook(c, paymentId, attemptId, status, rawBodyKept));
    else result = { refusal: "provider_error", outcome: "unconfirmed", authentic: true };
  } else {
    type = "PAYMENT_REFUND";
    paymentId = verdict.event.paymentId;
    const { refundId, statusGroup } = verdict.event;
    const known = await applyRefundStatus(c, paymentId, refundId, statusGroup);
    const applied =
      known === "unknown_refund" ? await recordRefundMadeElsewhere(c, paymentId, refundId, statusGroup) : known;
    result =
      applied === "unknown_refund"
        ? { refusal: "webhook_unknown_payment", outcome: "unknown_refund", authentic: true }
        : applied === "unconfirmed"
          ? { refusal: "provider_error", outcome: "unconfirmed_refund", authentic: true }
          : { refusal: null, outcome: applied, authentic: true };
  }
  // Kept already when it changed a payment (in the same statement as the change).
  if (!audited) {
    await storeEvent(c.db).execute({
      type,
      providerPaymentId: paymentId,
      outcome: result.outcome,
      rawBody: rawBodyKept,
    });
  }
  return result;
}
