"use client";

import { useEffect, useState } from "react";
import type { MessagesFor } from "@/lib/i18n/format";
import { AttemptPanel, type InFlightAttempt } from "./AttemptPanel";
import { clearAttemptKey } from "./attempt-key";
import { PaymentForm, type PaymentFormProps } from "./PaymentForm";

export type CheckoutPaymentMessages = PaymentFormProps["messages"] & MessagesFor<"attempt." | "checkout.failedNotice">;

type CheckoutPaymentProps = Omit<PaymentFormProps, "messages" | "notice"> & {
  /** The attempt in flight when the page was rendered (the payer came back from the bank). */
  attempt: InFlightAttempt | null;
  /** The last attempt failed: say so above the form. */
  failedBefore: boolean;
  statusHref: string;
  messages: CheckoutPaymentMessages;
};

/**
 * The checkout's only client island: the payment form, or the attempt in flight with its status.
 * Everything around it (order, QR code, banner, footer) is rendered on the server.
 */
export function CheckoutPayment({ attempt, failedBefore, statusHref, messages: t, ...form }: CheckoutPaymentProps) {
  const [inFlight, setInFlight] = useState(attempt !== null);
  const [startNew, setStartNew] = useState(form.startNewAttempt);
  const [notice, setNotice] = useState<PaymentFormProps["notice"]>(
    failedBefore ? { text: t["checkout.failedNotice"], tone: "warning", focus: false } : null,
  );

  // Back from the bank may restore this page from the back/forward cache, frozen as it was when
  // the payer left ("Taking you to your bank..."). Load it afresh: the server shows the attempt.
  useEffect(() => {
    function onPageShow(event: PageTransitionEvent) {
      if (event.persisted) window.location.reload();
    }
    window.addEventListener("pageshow", onPageShow);
    return () => window.removeEventListener("pageshow", onPageShow);
  }, []);

  if (inFlight && attempt) {
    return (
      <AttemptPanel
        checkoutId={form.checkoutId}
        amountText={form.amountText}
        attempt={attempt}
        statusHref={statusHref}
        messages={t}
        onOver={(reason) => {
          // That attempt's key must not be replayed: the next Pay is a new attempt.
          clearAttemptKey(form.checkoutId);
          setStartNew(true);
          setNotice({
            text: reason === "failed" ? t["checkout.failedNotice"] : t["attempt.abandoned"],
            tone: reason === "failed" ? "warning" : "info",
            focus: true,
          });
          setInFlight(false);
        }}
      />
    );
  }

  return <PaymentForm {...form} startNewAttempt={startNew} notice={notice} messages={t} />;
}
