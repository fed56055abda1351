import { CheckoutError } from "@/lib/checkout/errors";

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
