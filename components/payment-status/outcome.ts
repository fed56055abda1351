import type { CheckoutStatusView } from "@/lib/checkout/contract";
import type { MessagesFor } from "@/lib/i18n/format";

// Plain values, apart from PaymentStatus.tsx: the landing page's metadata names the page by the
// same outcome on the server, and a value imported from a "use client" module is only a reference there.

export type StatusMessages = MessagesFor<"status." | "common.returnToShop" | "common.tryAgain">;

export type Outcome =
  "checking" | "pending" | "atBank" | "slow" | "notPaid" | "paid" | "failed" | "expired" | "cancelled" | "unreachable";

export function outcomeOf(data: CheckoutStatusView | null, failedToLoad: boolean, timedOut: boolean): Outcome {
  if (!data) return failedToLoad ? "unreachable" : "checking";
  switch (data.status) {
    case "paid":
    case "failed":
    case "expired":
    case "cancelled":
      return data.status;
    default:
      // A checkout reopened after its attempt failed is a failed payment to the payer.
      if (data.attempt?.statusGroup === "failed" && !data.attempt.abandoned) return "failed";
      // The bank has the payment order; settling it can take a while, and that is normal.
      if (data.attempt?.statusGroup === "pending") return "atBank";
      // Nothing under way: no payment was started, or the payer stopped it to pay another way.
      // Saying "do not pay again" here would keep the payer from paying at all.
      if (data.status === "open" && (!data.attempt || data.attempt.abandoned)) return "notPaid";
      return timedOut ? "slow" : "pending";
  }
}

/** What each outcome says, and its colour tone; a failure's body also names its reason. */
export const VIEWS: Record<Outcome, { heading: keyof StatusMessages; body: keyof StatusMessages; tone: string }> = {
  paid: { heading: "status.paid.heading", body: "status.paid.body", tone: "status-paid" },
  failed: { heading: "status.failed.heading", body: "status.failed.body", tone: "status-failed" },
  expired: { heading: "status.expired.heading", body: "status.ended.body", tone: "status-ended" },
  cancelled: { heading: "status.cancelled.heading", body: "status.ended.body", tone: "status-ended" },
  atBank: { heading: "status.atBank.heading", body: "status.atBank.body", tone: "status-pending" },
  slow: { heading: "status.slow.heading", body: "status.slow.body", tone: "status-pending" },
  notPaid: { heading: "status.notPaid.heading", body: "status.notPaid.body", tone: "status-ended" },
  unreachable: { heading: "status.unreachable.heading", body: "status.unreachable.body", tone: "status-pending" },
  pending: { heading: "status.checking.heading", body: "status.checking.body", tone: "status-pending" },
  checking: { heading: "status.checking.heading", body: "status.checking.body", tone: "status-pending" },
};

/**
 * A card payment's own words where the bank's would be wrong ("your bank has confirmed", "try
 * another bank"); every other key is the same for both.
 */
const CARD_WORDS: Partial<Record<keyof StatusMessages, keyof StatusMessages>> = {
  "status.checking.body": "status.card.checking.body",
  "status.paid.body": "status.card.paid.body",
  "status.failed.body": "status.card.failed.body",
  "status.atBank.heading": "status.card.atBank.heading",
  "status.atBank.body": "status.card.atBank.body",
  "status.slow.body": "status.card.slow.body",
  "status.unreachable.body": "status.card.unreachable.body",
  "status.reason.refused_by_bank": "status.card.reason.refused_by_bank",
  "status.reason.cancelled_by_payer": "status.card.reason.cancelled_by_payer",
  "status.reason.insufficient_funds": "status.card.reason.insufficient_funds",
  "status.reason.unknown": "status.card.reason.unknown",
};

/** The message keys of what the landing says: heading, body and (for a failure) its reason. */
export function wordsOf(data: CheckoutStatusView | null, outcome: Outcome) {
  const byCard = data?.attempt?.method === "card";
  const said = (key: keyof StatusMessages) => (byCard && CARD_WORDS[key]) || key;
  const view = VIEWS[outcome];
  return {
    heading: said(view.heading),
    body: said(view.body),
    reason: said(`status.reason.${data?.failureReason ?? "unknown"}`),
    tone: view.tone,
  };
}
