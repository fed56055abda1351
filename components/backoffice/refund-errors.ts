import type { RefundView } from "@/lib/checkout/contract";
import { CheckoutError } from "@/lib/checkout/errors";
import { formatMoney } from "@/components/ui/money";

const FIELD_NAMES: Record<string, string> = { amount: "Amount", reason: "Reason" };

/**
 * A refused refund as one sentence for staff. Field problems name the field ("Amount must be
 * greater than zero."); other refusals use the domain's title, which is written for people.
 */
export function describeRefundError(err: CheckoutError): { error: string; field?: "amount" | "reason" } {
  const first = err.errors?.[0];
  const field = first?.path === "amount" || first?.path === "reason" ? first.path : undefined;
  if (err.code === "invalid_request" && err.errors?.length) {
    return {
      error: err.errors.map((e) => `${FIELD_NAMES[e.path] ?? e.path} ${e.message.replace(/\.$/, "")}.`).join(" "),
      field,
    };
  }
  return { error: [err.title, err.detail].filter(Boolean).join(" "), field };
}

/**
 * What staff are told of a refund the service answered with. The same refund key answers with the
 * refund it first made, which may have been refused; one whose outcome the provider left unknown
 * still counts against the payment, and refunding again before it is known could refund twice.
 */
export function describeRefund(refund: RefundView): { ok: true; message: string } | { ok: false; error: string } {
  const money = formatMoney(refund.amount, refund.currency);
  if (refund.status === "failed")
    return { ok: false, error: "The payment service refused this refund. See the refunds list." };
  if (refund.status === "unknown")
    return {
      ok: true,
      message: `Refund of ${money} sent, but the payment service did not answer. It counts against the payment until its outcome is known: check the refunds list before refunding again`,
    };
  return { ok: true, message: `Refund of ${money} started` };
}
