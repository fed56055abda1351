"use client";

import { lazy, Suspense, useEffect, useRef, useState, type ReactNode } from "react";
import type { SavedAccountView } from "@/lib/checkout/contract";
import type { MessagesFor } from "@/lib/i18n/format";
import type { InFlightAttempt } from "./AttemptPanel";
import { clearAttemptKey } from "./attempt-key";
import { Deadline, useDeadline } from "./Deadline";
import type { Expiry } from "./deadline-time";
import { PaymentForm, type PaymentFormProps } from "./PaymentForm";
import { useReportedStatus } from "./status-store";

// Most payers arrive with neither a payment in flight nor a saved account: these two panels load
// only for those who need them (the server renders them into the page as usual, and the browser
// fetches their code while it hydrates), which keeps everyone's first load within its budget.
// No <Suspense> around them: on the server the page's HTML waits for the panel (its module is on
// disk), where a boundary would send it hidden behind a script that reveals it, so the payer saw
// an empty card until the code ran, and for ever without it (ADR 21). Only the server renders them
// first; in the browser they hydrate what it sent.
const AttemptPanel = lazy(() => import("./AttemptPanel").then((m) => ({ default: m.AttemptPanel })));
const SavedAccountPanel = lazy(() => import("./SavedAccountPanel").then((m) => ({ default: m.SavedAccountPanel })));

export type CheckoutPaymentMessages = PaymentFormProps["messages"] &
  MessagesFor<
    | "attempt."
    | "checkout.failedNotice"
    | "expiry."
    | "checkout.expired.heading"
    | "checkout.cancelled.heading"
    | "checkout.ended.body"
  >;

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
  /** When the checkout ends, if soon enough to say so; null when it lasts longer (Deadline.tsx). */
  expiry: Expiry | null;
  /** "Return to the shop" once the checkout has ended; none inside the merchant's page. */
  shopHref: string | null;
  messages: CheckoutPaymentMessages;
};

/**
 * The checkout ended while the payer was on the page: said in place, with the focus on it, rather
 * than by loading the page again out from under them (their choices and place lost without a word).
 */
function EndedInPlace({ heading, body, action }: { heading: string; body: string; action: ReactNode }) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
  return (
    <div className="checkout-ended">
      <h3 ref={headingRef} tabIndex={-1}>
        {heading}
      </h3>
      <p>{body}</p>
      {action}
    </div>
  );
}

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
  expiry,
  shopHref,
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

  const phase = useDeadline(expiry);
  // Read, not asked: QrHandoff on a wide screen and the payment in flight ask, and an expired or
  // cancelled checkout shows here.
  const status = useReportedStatus(form.checkoutId);
  // The server's word first: a checkout cancelled as its time ran out was cancelled.
  const ended =
    status?.status === "expired" || status?.status === "cancelled"
      ? status.status
      : phase === "ended"
        ? "expired"
        : null;
  const deadline = expiry && !ended && <Deadline expiry={expiry} phase={phase} locale={form.locale} messages={t} />;

  if (ended && !(inFlight && attempt)) {
    return (
      <EndedInPlace
        heading={t[`checkout.${ended}.heading`]}
        body={t["checkout.ended.body"]}
        action={
          shopHref && (
            <a className="btn btn-secondary" href={shopHref}>
              {t["common.returnToShop"]}
            </a>
          )
        }
      />
    );
  }

  // A payment under way outlives the checkout's time: the server keeps it open for the bank's answer
  // (it may still be approved, and then the checkout is paid), so the panel stays and follows it,
  // and ends in place only when the server says the checkout has ended.
  if (inFlight && attempt) {
    return (
      <>
        {expiry && status?.status !== "paid" && (
          <Deadline expiry={expiry} phase={phase} locale={form.locale} messages={t} />
        )}
        <AttemptPanel
          checkoutId={form.checkoutId}
          amountText={form.amountText}
          attempt={attempt}
          statusHref={statusHref}
          statusTarget={embedded ? "_top" : undefined}
          locale={form.locale}
          postsItself={form.post !== undefined}
          refused={refused}
          timeUp={phase === "ended"}
          messages={t}
          onOver={(reason) => {
            // That attempt's key must not be replayed: the next Pay is a new attempt.
            clearAttemptKey(form.checkoutId);
            // The checkout has ended, as the status says: shown above, in place.
            if (reason === "ended") return setInFlight(false);
            setStartNew(true);
            setNotice({
              text: reason === "failed" ? t["checkout.failedNotice"] : t["attempt.abandoned"],
              tone: reason === "failed" ? "warning" : "info",
              focus: true,
            });
            setInFlight(false);
          }}
        />
      </>
    );
  }

  if (useSaved && savedAccount) {
    return (
      <>
        {deadline}
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
      </>
    );
  }

  // A boundary of its own (nothing in it suspends: the server sends it whole) makes React hydrate
  // the form after the rest of the page, in slices that leave the main thread free between them,
  // instead of in one long task with the page; a press before then hydrates it at once (ADR 12).
  return (
    <>
      {deadline}
      <Suspense>
        <PaymentForm {...form} bankOnly={embedded} startNewAttempt={startNew} notice={notice} messages={t} />
      </Suspense>
    </>
  );
}
