"use client";

import { lazy, Suspense, useEffect, useRef, useState } from "react";
import type { SavedAccountView } from "@/lib/checkout/contract";
import type { MessagesFor } from "@/lib/i18n/format";
import type { InFlightAttempt } from "./AttemptPanel";
import { clearAttemptKey } from "./attempt-key";
import { PaymentForm, type PaymentFormProps } from "./PaymentForm";

// Most payers arrive with neither a payment in flight nor a saved account: these two panels load
// only for those who need them (the server renders them into the page as usual, and the browser
// fetches their code while it hydrates), which keeps everyone's first load within its budget.
// No <Suspense> around them: on the server the page's HTML waits for the panel (its module is on
// disk), where a boundary would send it hidden behind a script that reveals it, so the payer saw
// an empty card until the code ran, and for ever without it (ADR 21). Only the server renders them
// first; in the browser they hydrate what it sent.
const AttemptPanel = lazy(() => import("./AttemptPanel").then((m) => ({ default: m.AttemptPanel })));
const SavedAccountPanel = lazy(() => import("./SavedAccountPanel").then((m) => ({ default: m.SavedAccountPanel })));

export type CheckoutPaymentMessages = PaymentFormProps["messages"] & MessagesFor<"attempt." | "checkout.failedNotice">;

type CheckoutPaymentProps = Omit<PaymentFormProps, "messages" | "notice" | "bankOnly"> & {
  /** Inside the merchant's own page (embed.js): the bank picker alone, and links leave the frame. */
  embedded?: boolean;
  /** The customer's saved bank account in this browser: one-click payment, or a call to save it again. */
  savedAccount: SavedAccountView | null;
  /** The attempt in flight when the page was rendered (the payer came back from the bank). */
  attempt: InFlightAttempt | null;
  /** What to say above the form first (the server's words: a failed attempt, a saved account, a refusal). */
  notice: PaymentFormProps["notice"];
  /** What stopped a form the browser posted by itself (ADR 21), in words: shown by the attempt in flight too. */
  refused: string | null;
  statusHref: string;
  messages: CheckoutPaymentMessages;
};

/**
 * The checkout's only client island: the payment form, the saved account's one-click payment, or
 * the attempt in flight with its status.
 * Everything around it (order, QR code, banner, footer) is rendered on the server.
 */
export function CheckoutPayment({
  embedded = false,
  attempt,
  notice: firstNotice,
  refused,
  statusHref,
  savedAccount,
  messages: t,
  ...form
}: CheckoutPaymentProps) {
  const [inFlight, setInFlight] = useState(attempt !== null);
  const [startNew, setStartNew] = useState(form.startNewAttempt);
  const [useSaved, setUseSaved] = useState(savedAccount?.state === "active");
  const [notice, setNotice] = useState(firstNotice);
  const switched = useRef(false);

  // After "Pay another way", focus goes to the form that replaced the button.
  useEffect(() => {
    if (!useSaved && switched.current)
      document.querySelector<HTMLElement>(".payment-form input, .payment-form select")?.focus();
  }, [useSaved]);

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
        statusTarget={embedded ? "_top" : undefined}
        locale={form.locale}
        postsItself={form.post !== undefined}
        refused={refused}
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

  if (useSaved && savedAccount) {
    return (
      <SavedAccountPanel
        checkoutId={form.checkoutId}
        locale={form.locale}
        amountText={form.amountText}
        account={savedAccount}
        startNewAttempt={startNew}
        termsUrl={form.termsUrl}
        privacyUrl={form.privacyUrl}
        post={form.post}
        messages={t}
        onPayAnotherWay={() => {
          switched.current = true;
          setUseSaved(false);
        }}
        onForgotten={() => {
          setNotice({ text: t["saved.notice.forgotten"], tone: "info", focus: true });
          setUseSaved(false);
        }}
      />
    );
  }

  // A boundary of its own (nothing in it suspends: the server sends it whole) makes React hydrate
  // the form after the rest of the page, in slices that leave the main thread free between them,
  // instead of in one long task with the page; a press before then hydrates it at once (ADR 12).
  return (
    <Suspense>
      <PaymentForm {...form} bankOnly={embedded} startNewAttempt={startNew} notice={notice} messages={t} />
    </Suspense>
  );
}
