import type { CheckoutStatus, StatusGroup } from "./types";

/**
 * The one place that decides whether a status may change. Webhooks, landing-page refreshes and
 * reconciliation all go through it, so a late or repeated message can never move money backwards.
 */

// null is "written, provider not answered yet". completed and failed are final.
const ATTEMPT_RANK: Record<StatusGroup | "none", number> = { none: 0, started: 1, pending: 2, completed: 3, failed: 3 };

export function isFinalGroup(group: StatusGroup | null): boolean {
  return group === "completed" || group === "failed";
}

/**
 * Whether an attempt at `current` may take `next`. The provider's status code may change within a
 * group (pending ACTC -> ACSP) so that is allowed; a group never goes back and a final one never moves.
 */
export function canMoveAttempt(
  current: { group: StatusGroup | null; code: string | null },
  next: { group: StatusGroup; code: string | null },
): boolean {
  if (isFinalGroup(current.group)) return false;
  const from = ATTEMPT_RANK[current.group ?? "none"];
  const to = ATTEMPT_RANK[next.group];
  if (to > from) return true;
  return to === from && next.code !== null && next.code !== current.code;
}

const CHECKOUT_MOVES: Record<CheckoutStatus, readonly CheckoutStatus[]> = {
  // open -> paid: an abandoned attempt the payer still authorised in a tab left open.
  open: ["processing", "paid", "failed", "expired", "cancelled"],
  // processing -> open: the payer came back unauthorised and chose to pay another way.
  processing: ["paid", "failed", "open"],
  // A failed attempt may be retried; an expired checkout can still be paid by an attempt that was
  // already at the bank, because the money has moved.
  failed: ["processing", "paid", "expired", "cancelled"],
  expired: ["paid"],
  paid: [],
  // Like expired: no payment starts, but one the payer had stopped may still be approved at the bank.
  cancelled: ["paid"],
};

export function canMoveCheckout(from: CheckoutStatus, to: CheckoutStatus): boolean {
  return CHECKOUT_MOVES[from].includes(to);
}

export function checkoutStatusForAttempt(group: StatusGroup | null): CheckoutStatus {
  switch (group) {
    case "completed":
      return "paid";
    case "failed":
      return "failed";
    default:
      return "processing";
  }
}

export function isFinalCheckout(status: CheckoutStatus): boolean {
  return status === "paid" || status === "expired" || status === "cancelled" || status === "failed";
}
