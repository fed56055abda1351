"use client";

import { useEffect, useState } from "react";
import type { CheckoutStatusView, FailureReason } from "@/lib/checkout/types";
import { format, type MessagesFor } from "@/lib/i18n/format";
import { clearAttemptKey } from "@/components/checkout/attempt-key";
import { shopLink } from "@/components/checkout/links";
import { requestJson } from "@/components/ui/api";

export type StatusMessages = MessagesFor<"status." | "common.returnToShop" | "common.tryAgain">;

const POLL_INTERVAL_MS = 1_500;
const POLL_MAX_INTERVAL_MS = 10_000;
const POLL_CAP_MS = 2 * 60_000;

type Outcome = "checking" | "pending" | "atBank" | "slow" | "paid" | "failed" | "expired" | "cancelled" | "unreachable";

function outcomeOf(data: CheckoutStatusView | null, failedToLoad: boolean, timedOut: boolean): Outcome {
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
      return timedOut ? "slow" : "pending";
  }
}

/** What each outcome says, and its colour tone; a failure's body also names its reason. */
const VIEWS: Record<Outcome, { heading: keyof StatusMessages; body: keyof StatusMessages; tone: string }> = {
  paid: { heading: "status.paid.heading", body: "status.paid.body", tone: "status-paid" },
  failed: { heading: "status.failed.heading", body: "status.failed.body", tone: "status-failed" },
  expired: { heading: "status.expired.heading", body: "status.ended.body", tone: "status-ended" },
  cancelled: { heading: "status.cancelled.heading", body: "status.ended.body", tone: "status-ended" },
  atBank: { heading: "status.atBank.heading", body: "status.atBank.body", tone: "status-pending" },
  slow: { heading: "status.slow.heading", body: "status.slow.body", tone: "status-pending" },
  unreachable: { heading: "status.unreachable.heading", body: "status.unreachable.body", tone: "status-pending" },
  pending: { heading: "status.checking.heading", body: "status.checking.body", tone: "status-pending" },
  checking: { heading: "status.checking.heading", body: "status.checking.body", tone: "status-pending" },
};

function reasonOf(data: CheckoutStatusView | null): FailureReason {
  if (data?.failureReason) return data.failureReason;
  switch (data?.attempt?.providerStatus?.toUpperCase()) {
    case "CANC":
      return "cancelled";
    case "RJCT":
      return "rejected";
    default:
      return "unknown";
  }
}

function Icon({ outcome }: { outcome: Outcome }) {
  if (outcome === "paid") {
    return (
      <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2.5" aria-hidden="true">
        <path d="M5 12.5l4.5 4.5L19 7.5" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
    );
  }
  if (outcome === "failed") {
    return (
      <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2.5" aria-hidden="true">
        <path d="M7 7l10 10M17 7L7 17" strokeLinecap="round" />
      </svg>
    );
  }
  if (outcome === "pending" || outcome === "checking") return <span className="spinner" aria-hidden="true" />;
  return (
    <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2.5" aria-hidden="true">
      <circle cx="12" cy="12" r="9" />
      <path d="M12 7v5l3 2" strokeLinecap="round" />
    </svg>
  );
}

/**
 * The landing page's status: asks the server (which asks the provider while the status is not
 * final) from every 1.5 s, backing off to every 10 s, for up to two minutes, then offers to check
 * again. Never reads the URL.
 */
export function PaymentStatus({ checkoutId, checkoutHref, messages: t }: { checkoutId: string; checkoutHref: string; messages: StatusMessages }) {
  const [data, setData] = useState<CheckoutStatusView | null>(null);
  const [failedToLoad, setFailedToLoad] = useState(false);
  const [timedOut, setTimedOut] = useState(false);
  const [round, setRound] = useState(0);

  const outcome = outcomeOf(data, failedToLoad, timedOut);
  const settled = outcome === "paid" || outcome === "failed" || outcome === "expired" || outcome === "cancelled";

  useEffect(() => {
    if (settled || timedOut) return;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    let delay = POLL_INTERVAL_MS;
    async function poll() {
      try {
        const view = await requestJson<CheckoutStatusView>(`/api/checkouts/${encodeURIComponent(checkoutId)}/status`, { signal: controller.signal });
        setData(view);
        setFailedToLoad(false);
        if (view.final || outcomeOf(view, false, false) === "failed") return;
      } catch {
        if (controller.signal.aborted) return;
        setFailedToLoad(true);
      }
      if (!stopped) timer = setTimeout(() => void poll(), delay);
      delay = Math.min(delay * 1.5, POLL_MAX_INTERVAL_MS);
    }
    void poll();
    const cap = setTimeout(() => setTimedOut(true), POLL_CAP_MS);
    // Coming back to the tab checks at once instead of waiting for the next round.
    const onFocus = () => {
      clearTimeout(timer);
      void poll();
    };
    window.addEventListener("focus", onFocus);
    return () => {
      stopped = true;
      controller.abort();
      clearTimeout(timer);
      clearTimeout(cap);
      window.removeEventListener("focus", onFocus);
    };
  }, [checkoutId, round, settled, timedOut]);

  function checkAgain() {
    setTimedOut(false);
    setRound((r) => r + 1);
  }

  const backToShop = data ? shopLink(data.returnUrl, checkoutId) : null;

  const view = VIEWS[outcome];
  const heading = t[view.heading];
  const message = outcome === "failed" ? format(t[view.body], { reason: t[`status.reason.${reasonOf(data)}`] }) : t[view.body];
  const tone = view.tone;

  return (
    <section className={`card ${tone}`} aria-labelledby="payment-status-heading">
      <div className="status-icon">
        <Icon outcome={outcome} />
      </div>
      <div role="status" aria-live="polite" aria-atomic="true">
        <h1 id="payment-status-heading">{heading}</h1>
        <p>{message}</p>
      </div>
      <div className="actions">
        {outcome === "failed" && (
          <a className="btn btn-primary" href={checkoutHref} onClick={() => clearAttemptKey(checkoutId)}>
            {t["common.tryAgain"]}
          </a>
        )}
        {(outcome === "slow" || outcome === "unreachable" || (outcome === "atBank" && timedOut)) && (
          <button type="button" className="btn btn-primary" onClick={checkAgain}>
            {t["status.checkAgain"]}
          </button>
        )}
        {backToShop && (
          <a className={`btn ${outcome === "paid" ? "btn-primary" : "btn-secondary"}`} href={backToShop}>
            {t["common.returnToShop"]}
          </a>
        )}
      </div>
    </section>
  );
}
