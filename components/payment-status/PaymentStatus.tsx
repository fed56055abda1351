"use client";

import { lazy, Suspense, useCallback, useEffect, useRef, useState, useSyncExternalStore, type ReactNode } from "react";
import type { CheckoutStatusView } from "@/lib/checkout/contract";
import { format } from "@/lib/i18n/format";
import { clearAttemptKey } from "@/components/checkout/attempt-key";
import { shopLink } from "@/components/checkout/links";
import { keepTitle, withPageName } from "@/components/i18n/page-title";
import { outcomeOf, wordsOf, type Outcome, type StatusMessages } from "./outcome";
import type { Followed } from "./StatusFollower";

// With react-query: fetched after the page, and only while the outcome is still to come (ADR 26).
const StatusFollower = lazy(() => import("./StatusFollower"));

const noChange = () => () => {};

/** A failed or unpaid checkout changes only when the payer pays again: nothing to wait for. */
function settledView(view: CheckoutStatusView | null | undefined): boolean {
  return view != null && (view.final || ["failed", "notPaid"].includes(outcomeOf(view, false, false)));
}
const POLL_CAP_MS = 2 * 60_000;

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
 * The landing page's status. The server renders what it knows (having asked the provider, when it
 * answered in time), so the first paint is usually the outcome itself. While it is not final, the
 * page asks again (StatusFollower), backing off from every 1.5 s to every 10 s, at once when the
 * payer comes back to the tab (from the bank app, or out of the back/forward cache), paused while
 * the tab is hidden, for up to two minutes; then "Check again". Never reads the URL.
 */
export function PaymentStatus({
  checkoutId,
  checkoutHref,
  checkAgainLink,
  initial,
  messages: t,
}: {
  checkoutId: string;
  checkoutHref: string;
  /**
   * Without JavaScript nothing asks again: "Check again" as a link to this page, in `<noscript>`,
   * rendered by the server (no code of ours in the page's scripts), shown while not final.
   */
  checkAgainLink: ReactNode;
  initial: CheckoutStatusView | null;
  messages: StatusMessages;
}) {
  const [timedOut, setTimedOut] = useState(false);
  const [round, setRound] = useState(0);
  const [followed, setFollowed] = useState<Followed>({ data: initial, failed: false });
  const askNow = useRef<(() => void) | null>(null);
  const data = followed.data;
  const outcome = outcomeOf(data, followed.failed, timedOut);
  const settled = settledView(data);
  // Followed from the browser only when the first paint did not already show the outcome, once the
  // page is up (false on the server and while hydrating).
  const follow = useSyncExternalStore(
    noChange,
    () => !settledView(initial),
    () => false,
  );
  const asking = useCallback((view: CheckoutStatusView | undefined) => !timedOut && !settledView(view), [timedOut]);

  useEffect(() => {
    if (settled || timedOut) return;
    const cap = setTimeout(() => setTimedOut(true), POLL_CAP_MS);
    return () => clearTimeout(cap);
  }, [settled, timedOut, round]);

  useEffect(() => {
    // Back from the bank may restore this page from the back/forward cache: ask at once.
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) askNow.current?.();
    };
    window.addEventListener("pageshow", onPageShow);
    return () => window.removeEventListener("pageshow", onPageShow);
  }, []);

  // "Check again" goes away when pressed: focus moves to the status heading instead of falling to
  // the page's body. A screen reader reads the heading on arriving there, so from then on the
  // heading is outside the status region, which would otherwise say it a second time; the region
  // says the heading's words again only once they change after that.
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (round > 0) headingRef.current?.focus();
  }, [round]);

  function checkAgain() {
    setTimedOut(false);
    setRound((r) => r + 1);
    // Asking again: no longer "could not check", in the same render that moves the focus.
    setFollowed((f) => ({ ...f, failed: false }));
    askNow.current?.();
  }

  const backToShop = data ? shopLink(data.returnUrl, checkoutId) : null;

  const words = wordsOf(data, outcome);
  const heading = t[words.heading];
  const message = outcome === "failed" ? format(t[words.body], { reason: t[words.reason] }) : t[words.body];
  const tone = words.tone;

  // The heading's words the focus read out on the last "Check again".
  const [focused, setFocused] = useState({ round: 0, heading });
  if (focused.round !== round) setFocused({ round, heading });
  const pressed = round > 0;
  const headingElement = (
    <h1 id="payment-status-heading" ref={headingRef} tabIndex={-1}>
      {heading}
    </h1>
  );

  // The tab's title says what the heading says (paid, failed, still confirming), as it changes.
  useEffect(() => keepTitle((title) => withPageName(title, heading)), [heading]);

  return (
    <section className={`card ${tone}`} aria-labelledby="payment-status-heading">
      {follow && (
        <Suspense fallback={null}>
          <StatusFollower
            checkoutId={checkoutId}
            initial={initial}
            follow={asking}
            onChange={setFollowed}
            askNowRef={askNow}
          />
        </Suspense>
      )}
      <div className="status-icon">
        <Icon outcome={outcome} />
      </div>
      {pressed && headingElement}
      <div role="status" aria-live="polite" aria-atomic="true">
        {!pressed ? headingElement : heading !== focused.heading && <p className="visually-hidden">{heading}</p>}
        <p>{message}</p>
      </div>
      <div className="actions">
        {(outcome === "failed" || outcome === "notPaid") && (
          <a className="btn btn-primary" href={checkoutHref} onClick={() => clearAttemptKey(checkoutId)}>
            {outcome === "failed" ? t["common.tryAgain"] : t["status.notPaid.action"]}
          </a>
        )}
        {(outcome === "slow" || outcome === "unreachable" || (outcome === "atBank" && timedOut)) && (
          <button type="button" className="btn btn-primary" onClick={checkAgain}>
            {t["status.checkAgain"]}
          </button>
        )}
        {!settled && checkAgainLink}
        {backToShop && (
          <a className={`btn ${outcome === "paid" ? "btn-primary" : "btn-secondary"}`} href={backToShop}>
            {t["common.returnToShop"]}
          </a>
        )}
      </div>
    </section>
  );
}
