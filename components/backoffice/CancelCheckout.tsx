"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { cancelCheckoutAsStaff } from "@/app/backoffice/actions";
import type { CheckoutStatus } from "@/lib/checkout/types";
import type { ActionResult } from "./action-state";
import { ActionOutcome } from "./ActionOutcome";
import { staffKeys } from "./queries";
import styles from "./backoffice.module.css";

/**
 * Where a cancel can work: no final status yet. `processing` too: a payment the payer has not
 * authorised is stopped first, and one they have is refused by the server with a reason.
 */
export const CANCELLABLE: readonly CheckoutStatus[] = ["open", "processing", "failed"];

/**
 * Cancel checkout, in two steps: the button asks, and only the question's "Yes" sends. The
 * question takes focus, so a screen reader reads it before anything can be confirmed, and a key
 * held down on the first button cannot press the second. The live regions stay whatever the
 * status, so the outcome is announced after the button has gone.
 */
export function CancelCheckout({ checkoutId, status }: { checkoutId: string; status: CheckoutStatus }) {
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState(false);
  const [outcome, setOutcome] = useState<ActionResult | null>(null);
  const startRef = useRef<HTMLButtonElement>(null);
  const questionRef = useRef<HTMLParagraphElement>(null);
  const messageRef = useRef<HTMLParagraphElement>(null);
  // Where focus goes once the step it depends on is on screen.
  const focusNext = useRef<"start" | "question" | null>(null);

  const cancel = useMutation({
    mutationFn: () => {
      const data = new FormData();
      data.set("checkoutId", checkoutId);
      return cancelCheckoutAsStaff(null, data);
    },
    onMutate: () => setOutcome(null),
    onSuccess: (answer) => {
      setOutcome(answer);
      setAsking(false);
      if (!answer.ok) focusNext.current = "start";
      // Refused or not, the status may have moved (a payment stopped, or found authorised).
      void queryClient.invalidateQueries({ queryKey: staffKeys.checkout(checkoutId) });
      void queryClient.invalidateQueries({ queryKey: staffKeys.checkouts() });
    },
    onError: () => {
      setOutcome({ ok: false, error: "The cancel could not be sent. Reload the page to see the checkout's status." });
      setAsking(false);
      focusNext.current = "start";
    },
  });

  const shown = CANCELLABLE.includes(status) && !outcome?.ok;
  useEffect(() => {
    const next = focusNext.current;
    focusNext.current = null;
    if (next === "question") questionRef.current?.focus();
    else if (next === "start") startRef.current?.focus();
    // The button just pressed has gone (cancelled, or the status moved on): focus goes to what
    // replaced it, the outcome.
    else if (!shown && outcome && (!document.activeElement || document.activeElement === document.body))
      messageRef.current?.focus();
  }, [asking, shown, outcome]);

  return (
    <div className={styles.cancelCheckout}>
      {shown &&
        (asking ? (
          <div role="group" aria-labelledby="cancel-question">
            <p id="cancel-question" ref={questionRef} tabIndex={-1}>
              <strong>Cancel this checkout?</strong> The payer can no longer pay it, and a payment they have not
              authorised at the bank is stopped. This cannot be undone.
            </p>
            <div className={styles.buttonRow}>
              <button
                type="button"
                className={`btn ${styles.btnDanger}`}
                aria-disabled={cancel.isPending || undefined}
                onClick={() => {
                  if (!cancel.isPending) cancel.mutate();
                }}
              >
                Yes, cancel checkout
              </button>
              <button
                type="button"
                className="btn btn-secondary"
                onClick={() => {
                  if (cancel.isPending) return;
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
            Cancel checkout
          </button>
        ))}
      <ActionOutcome name="Cancel" outcome={outcome} messageRef={messageRef} className={styles.slot} />
    </div>
  );
}
