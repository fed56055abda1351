"use client";

import { useEffect, useRef, useState } from "react";
import type { CheckoutStatusView, PaymentMethod } from "@/lib/checkout/types";
import { format, type MessagesFor } from "@/lib/i18n/format";
import { ApiError, requestJson } from "@/components/ui/api";

export type AttemptMessages = MessagesFor<"attempt." | "payError." | "common.tryAgain">;

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
  messages: AttemptMessages;
  /** The attempt is over (stopped by the payer, or failed): show the form again. */
  onOver(reason: "abandoned" | "failed"): void;
}

const POLL_MS = 3_000;

type Shown = "waiting" | "pending" | "paid" | "failed";

/**
 * What the payer sees when they come back (Back button, reload) while a payment is in flight:
 * the attempt and its live status, a link to the status page, and a way to stop it and pay
 * otherwise, but never a fresh Pay button that could start a second payment.
 */
export function AttemptPanel({ checkoutId, amountText, attempt, statusHref, messages: t, onOver }: AttemptPanelProps) {
  const [shown, setShown] = useState<Shown>(attempt.statusGroup === "pending" ? "pending" : "waiting");
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<{ text: string; retry: boolean } | null>(null);
  const noteRef = useRef<HTMLDivElement>(null);
  const onOverRef = useRef(onOver);

  useEffect(() => {
    onOverRef.current = onOver;
  }, [onOver]);

  useEffect(() => {
    if (note) noteRef.current?.focus();
  }, [note]);

  // Follow the attempt while the page is open: a late approval or failure shows up here.
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const controller = new AbortController();
    async function poll() {
      try {
        const view = await requestJson<CheckoutStatusView>(`/api/checkouts/${encodeURIComponent(checkoutId)}/status`, { signal: controller.signal });
        if (view.status === "paid") return setShown("paid");
        if (view.status === "expired" || view.status === "cancelled") return window.location.reload();
        const group = view.attempt?.statusGroup;
        if (view.status === "failed" || group === "failed") return onOverRef.current("failed");
        if (view.status === "open" && (!view.attempt || view.attempt.abandoned)) return onOverRef.current("abandoned");
        setShown(group === "pending" ? "pending" : "waiting");
      } catch {
        if (controller.signal.aborted) return;
      }
      timer = setTimeout(() => void poll(), POLL_MS);
    }
    timer = setTimeout(() => void poll(), POLL_MS);
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [checkoutId]);

  async function chooseAnother() {
    if (busy) return;
    setBusy(true);
    setNote(null);
    try {
      await requestJson<{ abandoned: true }>(`/api/checkouts/${encodeURIComponent(checkoutId)}/payments/abandon`, { method: "POST" });
      onOver("abandoned");
    } catch (error) {
      setBusy(false);
      const code = error instanceof ApiError ? error.code : null;
      if (code === "payment_authorised") {
        setShown((s) => (s === "paid" ? s : "pending"));
        setNote({ text: t["attempt.authorised"], retry: false });
      } else if (code === "payment_in_progress") {
        setNote({ text: t["payError.inProgress"], retry: true });
      } else if (error instanceof ApiError && error.status === 0) {
        setNote({ text: t["payError.network"], retry: true });
      } else if (code === "provider_error") {
        setNote({ text: t["payError.providerError"], retry: true });
      } else {
        setNote({ text: t["payError.generic"], retry: true });
      }
    }
  }

  const body = attempt.bankName ? format(t["attempt.body"], { amount: amountText, bank: attempt.bankName }) : format(t["attempt.bodyNoBank"], { amount: amountText });
  const stateText = t[`attempt.state.${shown}`];
  const canStop = shown !== "paid" && note?.text !== t["attempt.authorised"];

  return (
    <section className="attempt" aria-labelledby="attempt-heading">
      <h3 id="attempt-heading">
        {t["attempt.heading"]}
      </h3>
      <p>{body}</p>
      <p className={`attempt-state attempt-${shown}`} role="status">
        {shown === "waiting" || shown === "pending" ? <span className="spinner spinner-small" aria-hidden="true" /> : null}
        <span>{stateText}</span>
      </p>

      {note && (
        <div ref={noteRef} tabIndex={-1} className={`alert ${note.retry ? "alert-error" : "alert-info"}`} role="alert" aria-label={t["payError.label"]}>
          <p>{note.text}</p>
        </div>
      )}

      <div className="actions">
        <a className="btn btn-primary" href={statusHref}>
          {t["attempt.check"]}
        </a>
        {canStop && (
          <button type="button" className="btn btn-secondary" onClick={() => void chooseAnother()} disabled={busy} aria-describedby="attempt-another-hint">
            {busy ? t["attempt.abandoning"] : t["attempt.another"]}
          </button>
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
