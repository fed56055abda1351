"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useState } from "react";
import type { CheckoutStatusView } from "@/lib/checkout/types";
import { clearAttemptKey } from "@/components/checkout/attempt-key";
import { errorMessage, requestJson } from "@/components/ui/api";

const POLL_INTERVAL_MS = 1_500;
const POLL_CAP_MS = 2 * 60_000;

type Outcome = "checking" | "pending" | "slow" | "paid" | "failed" | "expired" | "cancelled" | "unreachable";

function outcomeOf(data: CheckoutStatusView | undefined, hasError: boolean, timedOut: boolean): Outcome {
  if (!data) return hasError ? "unreachable" : "checking";
  switch (data.status) {
    case "paid":
      return "paid";
    case "failed":
      return "failed";
    case "expired":
      return "expired";
    case "cancelled":
      return "cancelled";
    default:
      // A checkout reopened after its attempt failed is a failed payment to the payer.
      if (data.attempt?.statusGroup === "failed") return "failed";
      return timedOut ? "slow" : "pending";
  }
}

function failureReason(providerStatus: string | null | undefined): string {
  switch (providerStatus?.toUpperCase()) {
    case "CANC":
      return "The payment was cancelled at the bank.";
    case "RJCT":
      return "Your bank rejected the payment.";
    default:
      return "Your bank did not complete the payment.";
  }
}

function shopLink(returnUrl: string, checkoutId: string): string | null {
  try {
    const url = new URL(returnUrl);
    if (url.protocol !== "https:" && url.protocol !== "http:") return null;
    url.searchParams.set("checkout", checkoutId);
    return url.href;
  } catch {
    return null;
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

export function PaymentStatus({ checkoutId }: { checkoutId: string }) {
  const [timedOut, setTimedOut] = useState(false);
  const [round, setRound] = useState(0);

  const { data, isError, error, refetch } = useQuery({
    queryKey: ["checkout-status", checkoutId],
    queryFn: ({ signal }) =>
      requestJson<CheckoutStatusView>(`/api/checkouts/${encodeURIComponent(checkoutId)}/status`, { signal }),
    staleTime: 0,
    refetchOnWindowFocus: true,
    refetchInterval: (query) => {
      const current = query.state.data;
      if (timedOut) return false;
      if (current && (current.final || outcomeOf(current, false, false) === "failed")) return false;
      return POLL_INTERVAL_MS;
    },
  });

  const outcome = outcomeOf(data, isError, timedOut);
  const settled = outcome === "paid" || outcome === "failed" || outcome === "expired" || outcome === "cancelled";

  useEffect(() => {
    if (settled) return;
    const timer = setTimeout(() => setTimedOut(true), POLL_CAP_MS);
    return () => clearTimeout(timer);
  }, [round, settled]);

  function checkAgain() {
    setTimedOut(false);
    setRound((r) => r + 1);
    void refetch();
  }

  const backToShop = data ? shopLink(data.returnUrl, checkoutId) : null;
  const checkoutHref = `/checkout/${encodeURIComponent(checkoutId)}`;

  let heading: string;
  let message: string;
  let tone: string;
  switch (outcome) {
    case "paid":
      heading = "Payment received";
      message = "Your bank has confirmed the payment. Thank you!";
      tone = "status-paid";
      break;
    case "failed":
      heading = "Payment failed";
      message = `${failureReason(data?.attempt?.providerStatus)} No money was taken from your account. You can try again with the same or another bank.`;
      tone = "status-failed";
      break;
    case "expired":
      heading = "This checkout has expired";
      message = "No payment was taken. Return to the shop to place the order again.";
      tone = "status-ended";
      break;
    case "cancelled":
      heading = "This checkout was cancelled";
      message = "No payment was taken. Return to the shop to place the order again.";
      tone = "status-ended";
      break;
    case "slow":
      heading = "Still confirming your payment";
      message =
        "Your bank has not confirmed the payment yet. We will update the shop when the bank confirms, so you can safely return to it now. Please do not pay again.";
      tone = "status-pending";
      break;
    case "unreachable":
      heading = "We could not check your payment";
      message = `${errorMessage(error)} If you approved the payment at your bank, please do not pay again.`;
      tone = "status-pending";
      break;
    default:
      heading = "Confirming your payment…";
      message =
        "We are waiting for your bank to confirm the payment. This usually takes a few seconds. You can keep this page open; there is no need to pay again.";
      tone = "status-pending";
  }

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
          <Link className="btn btn-primary" href={checkoutHref} onClick={() => clearAttemptKey(checkoutId)}>
            Try again
          </Link>
        )}
        {(outcome === "slow" || outcome === "unreachable") && (
          <button type="button" className="btn btn-primary" onClick={checkAgain}>
            Check again
          </button>
        )}
        {backToShop && (
          <a className={`btn ${outcome === "paid" ? "btn-primary" : "btn-secondary"}`} href={backToShop}>
            Return to the shop
          </a>
        )}
      </div>
    </section>
  );
}
