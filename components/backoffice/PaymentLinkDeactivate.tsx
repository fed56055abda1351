"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { deactivatePaymentLinkAction } from "@/app/backoffice/payment-links/actions";
import type { ActionResult } from "./action-state";
import { ActionOutcome } from "./ActionOutcome";
import styles from "./backoffice.module.css";

/**
 * Deactivate, in two steps as Cancel checkout: the button asks, and only the question's "Yes"
 * sends. The question takes focus, so it is read before anything can be confirmed; once the link
 * is deactivated the button goes and focus moves to the outcome that replaced it.
 */
export function PaymentLinkDeactivate({ linkId, deactivated }: { linkId: string; deactivated: boolean }) {
  const router = useRouter();
  const [asking, setAsking] = useState(false);
  const [outcome, setOutcome] = useState<ActionResult | null>(null);
  const startRef = useRef<HTMLButtonElement>(null);
  const questionRef = useRef<HTMLParagraphElement>(null);
  const messageRef = useRef<HTMLParagraphElement>(null);
  const focusNext = useRef<"start" | "question" | null>(null);

  const deactivate = useMutation({
    mutationFn: () => {
      const data = new FormData();
      data.set("linkId", linkId);
      return deactivatePaymentLinkAction(null, data);
    },
    onMutate: () => setOutcome(null),
    onSuccess: (answer) => {
      setOutcome(answer);
      setAsking(false);
      if (answer.ok) router.refresh();
      else focusNext.current = "start";
    },
    onError: () => {
      setOutcome({ ok: false, error: "The link could not be deactivated. Reload the page to see its status." });
      setAsking(false);
      focusNext.current = "start";
    },
  });

  // Mounted whatever the status, so the outcome stays on the page after the refresh that hides the button.
  const shown = !deactivated && !outcome?.ok;
  useEffect(() => {
    const next = focusNext.current;
    focusNext.current = null;
    if (next === "question") questionRef.current?.focus();
    else if (next === "start") startRef.current?.focus();
    else if (!shown && outcome && (!document.activeElement || document.activeElement === document.body))
      messageRef.current?.focus();
  }, [asking, shown, outcome]);

  return (
    <div className={styles.cancelCheckout}>
      {shown &&
        (asking ? (
          <div role="group" aria-labelledby="deactivate-question">
            <p id="deactivate-question" ref={questionRef} tabIndex={-1}>
              <strong>Deactivate this payment link?</strong> Payers who open it are told it no longer takes payments.
              Payments already started from it can still finish. This cannot be undone.
            </p>
            <div className={styles.buttonRow}>
              <button
                type="button"
                className={`btn ${styles.btnDanger}`}
                aria-disabled={deactivate.isPending || undefined}
                onClick={() => {
                  if (!deactivate.isPending) deactivate.mutate();
                }}
              >
                Yes, deactivate link
              </button>
              <button
                type="button"
                className="btn btn-secondary"
                onClick={() => {
                  if (deactivate.isPending) return;
                  focusNext.current = "start";
                  setAsking(false);
                }}
              >
                No, keep it
              </button>
            </div>
          </div>
        ) : (
          <button
            type="button"
            ref={startRef}
            className="btn btn-secondary"
            onClick={() => {
              focusNext.current = "question";
              setOutcome(null);
              setAsking(true);
            }}
          >
            Deactivate link
          </button>
        ))}
      <ActionOutcome name="Deactivate" outcome={outcome} messageRef={messageRef} className={styles.slot} />
    </div>
  );
}
