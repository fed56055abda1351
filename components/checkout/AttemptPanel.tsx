"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import type { Locale, PaymentMethod } from "@/lib/checkout/types";
import type { CheckoutStatusView } from "@/lib/checkout/contract";
import { format, type MessagesFor } from "@/lib/i18n/format";
import { ApiError, fetchJson } from "@/components/query/fetch-json";
import { checkoutStatusQuery } from "@/components/query/queries";
import { inQueryIsland } from "@/components/query/QueryIsland";
import { FormButton } from "./FormButton";
import { apiErrorKey } from "./pay-request";
import { reportStatus } from "./status-store";

export type AttemptMessages = MessagesFor<"attempt." | "payError." | "apiError." | "common.tryAgain">;

export interface InFlightAttempt {
  method: PaymentMethod;
  bankName: string | null;
  statusGroup: "started" | "pending" | null;
}

interface AttemptPanelProps {
  checkoutId: string;
  amountText: string;
  attempt: InFlightAttempt;
  statusHref: string;
  /** Inside the merchant's page the status page opens in the whole window: it is never framed. */
  statusTarget?: "_top";
  locale: Locale;
  /** "Choose another bank" works before the page's code runs, posting by itself (ADR 21); never in a frame. */
  postsItself: boolean;
  /** Why "Choose another way", posted before the page's code ran, did not work (in words). */
  refused: string | null;
  /** The checkout's time has run out (Deadline.tsx): this payment may still go through, but no other can start. */
  timeUp: boolean;
  messages: AttemptMessages;
  /** The attempt is over (stopped by the payer, or failed; or the checkout ended): show what replaces it. */
  onOver(reason: "abandoned" | "failed" | "ended"): void;
}

const POLL_MS = 3_000;
/** The "Choose another bank" button's id. */
const STOP_ID = "attempt-another";

type Shown = "waiting" | "pending" | "paid" | "failed";

/** What a status read means for the panel: stay (waiting, pending, paid) or leave it. */
function nextOf(view: CheckoutStatusView): Shown | "ended" | "abandoned" {
  if (view.status === "paid") return "paid";
  if (view.status === "expired" || view.status === "cancelled") return "ended";
  const group = view.attempt?.statusGroup;
  if (view.status === "failed" || group === "failed") return "failed";
  if (view.status === "open" && (!view.attempt || view.attempt.abandoned)) return "abandoned";
  return group === "pending" ? "pending" : "waiting";
}

/** Why "Choose another way" did not work, for the payer. */
function abandonNote(error: unknown, t: AttemptMessages): { text: string; retry: boolean } {
  if (!(error instanceof ApiError)) return { text: t["payError.generic"], retry: true };
  const { code, problem, status } = error;
  if (code === "payment_authorised") return { text: t["attempt.authorised"], retry: false };
  if (status === 0) return { text: t["payError.network"], retry: true };
  const key = apiErrorKey(code, t);
  if (problem && key) return { text: t[key], retry: problem.retry };
  return { text: t["payError.generic"], retry: true };
}

/**
 * What the payer sees when they come back (Back button, reload) while a payment is in flight:
 * the attempt and its live status, a link to the status page, and a way to stop it and pay
 * otherwise, but never a fresh Pay button that could start a second payment. An island of its own,
 * with react-query, loaded only by the pages that show it (ADR 26).
 */
export const AttemptPanel = inQueryIsland(Panel);

function Panel({
  checkoutId,
  amountText,
  attempt,
  statusHref,
  statusTarget,
  locale,
  postsItself,
  refused,
  timeUp,
  messages: t,
  onOver,
}: AttemptPanelProps) {
  const [note, setNote] = useState<{ text: string; retry: boolean } | null>(
    refused ? { text: refused, retry: false } : null,
  );
  const noteRef = useRef<HTMLDivElement>(null);
  const onOverRef = useRef(onOver);

  useEffect(() => {
    onOverRef.current = onOver;
  }, [onOver]);

  useEffect(() => {
    if (note) noteRef.current?.focus();
  }, [note]);

  // Follow the attempt while the page is open: a late approval or failure shows up here.
  const { data: view } = useQuery({ ...checkoutStatusQuery(checkoutId), refetchInterval: POLL_MS });
  const next = view ? nextOf(view) : null;
  // The payment card reads it too: an expired or cancelled checkout is said in place.
  useEffect(() => {
    if (view) reportStatus(checkoutId, view);
  }, [checkoutId, view]);
  useEffect(() => {
    if (next === "failed" || next === "abandoned" || next === "ended") onOverRef.current(next);
  }, [next]);
  // Until the first answer, what the page was rendered with.
  const polled: Shown =
    next === "paid" || next === "pending" || next === "waiting"
      ? next
      : attempt.statusGroup === "pending"
        ? "pending"
        : "waiting";

  const abandon = useMutation({
    mutationFn: () =>
      fetchJson<{ abandoned: true }>(`/api/checkouts/${encodeURIComponent(checkoutId)}/payments/abandon`, {
        method: "POST",
      }),
    onMutate: () => setNote(null),
    onSuccess: () => onOver("abandoned"),
    onError: (error) => setNote(abandonNote(error, t)),
  });
  // The bank authorised it meanwhile: nothing to stop any more.
  const authorised = note?.text === t["attempt.authorised"];
  const shown: Shown = polled === "paid" ? "paid" : authorised ? "pending" : polled;
  const busy = abandon.isPending;
  const chooseAnother = () => {
    if (!busy) abandon.mutate();
  };

  const body = attempt.bankName
    ? format(t["attempt.body"], { amount: amountText, bank: attempt.bankName })
    : format(t["attempt.bodyNoBank"], { amount: amountText });
  const stateText = t[`attempt.state.${shown}`];
  // Only a payment the bank is still waiting to have approved can be replaced (ADR 8); once the bank
  // has accepted it, stopping is refused and the payer can only wait for its result. After the
  // checkout's time, nothing could replace it.
  const canStop = shown === "waiting" && !timeUp;

  // "Choose another bank" goes away when the bank accepts the payment or the time runs out: if it had the focus (now
  // fallen to the page's body), the focus moves to the status that says why.
  const stopFocused = useRef(false);
  const stateRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (canStop || !stopFocused.current) return;
    stopFocused.current = false;
    if (!document.activeElement || document.activeElement === document.body) stateRef.current?.focus();
  }, [canStop]);

  return (
    <section className="attempt" aria-labelledby="attempt-heading">
      <h3 id="attempt-heading">{t["attempt.heading"]}</h3>
      <p>{body}</p>
      <p ref={stateRef} tabIndex={-1} className={`attempt-state attempt-${shown}`} role="status">
        {shown === "waiting" || shown === "pending" ? (
          <span className="spinner spinner-small" aria-hidden="true" />
        ) : null}
        <span>{stateText}</span>
      </p>

      {note && (
        <div
          ref={noteRef}
          tabIndex={-1}
          className={`alert ${note.retry ? "alert-error" : "alert-info"}`}
          role="alert"
          aria-label={t["payError.label"]}
        >
          <p>{note.text}</p>
        </div>
      )}

      <div className="actions" onFocus={(event) => (stopFocused.current = event.target.id === STOP_ID)}>
        <a className="btn btn-primary" href={statusHref} target={statusTarget}>
          {t["attempt.check"]}
        </a>
        {canStop && (
          <FormButton
            form={
              postsItself
                ? { method: "post", action: `/checkout/${encodeURIComponent(checkoutId)}/abandon` }
                : undefined
            }
            fields={{ lang: locale }}
            id={STOP_ID}
            className="btn btn-secondary"
            onPress={chooseAnother}
            disabled={busy}
            aria-describedby="attempt-another-hint"
          >
            {busy ? t["attempt.abandoning"] : t["attempt.another"]}
          </FormButton>
        )}
      </div>
      {canStop && (
        <p id="attempt-another-hint" className="hint">
          {t["attempt.anotherHint"]}
        </p>
      )}
    </section>
  );
}
