"use client";

import { useMutation } from "@tanstack/react-query";
import { useEffect, useRef, useState, type ReactNode } from "react";
import type { ActionResult } from "./action-state";
import { ActionOutcome } from "./ActionOutcome";
import styles from "./backoffice.module.css";

interface ConfirmedActionProps {
  /** Names the question's element (`<id>-question`). */
  id: string;
  /** Whether the action can still be done; the outcome stays on the page whatever it is. */
  available: boolean;
  startLabel: string;
  question: ReactNode;
  yesLabel: string;
  /** The outcome's live regions: "<name> result", "<name> error". */
  outcomeName: string;
  /** What is said when the action could not be sent at all. */
  unsent: string;
  send(): Promise<ActionResult>;
  /** After the server answered, refused or not (the page may need fresh data). */
  answered?(answer: ActionResult): void;
}

/**
 * A staff action in two steps: the button asks, and only the question's "Yes" sends. The question
 * takes focus, so a screen reader reads it before anything can be confirmed, and a key held down
 * on the first button cannot press the second. The live regions stay whatever happens, so the
 * outcome is announced after the button has gone, and focus moves to it.
 */
export function ConfirmedAction(p: ConfirmedActionProps) {
  const [asking, setAsking] = useState(false);
  const [outcome, setOutcome] = useState<ActionResult | null>(null);
  const startRef = useRef<HTMLButtonElement>(null);
  const questionRef = useRef<HTMLParagraphElement>(null);
  const messageRef = useRef<HTMLParagraphElement>(null);
  // Where focus goes once the step it depends on is on screen.
  const focusNext = useRef<"start" | "question" | null>(null);

  const action = useMutation({
    mutationFn: p.send,
    onMutate: () => setOutcome(null),
    onSuccess: (answer) => {
      setOutcome(answer);
      setAsking(false);
      if (!answer.ok) focusNext.current = "start";
      p.answered?.(answer);
    },
    onError: () => {
      setOutcome({ ok: false, error: p.unsent });
      setAsking(false);
      focusNext.current = "start";
    },
  });

  const shown = p.available && !outcome?.ok;
  useEffect(() => {
    const next = focusNext.current;
    focusNext.current = null;
    if (next === "question") questionRef.current?.focus();
    else if (next === "start") startRef.current?.focus();
    // The button just pressed has gone: focus goes to what replaced it, the outcome.
    else if (!shown && outcome && (!document.activeElement || document.activeElement === document.body))
      messageRef.current?.focus();
  }, [asking, shown, outcome]);

  return (
    <div className={styles.cancelCheckout}>
      {shown &&
        (asking ? (
          <div role="group" aria-labelledby={`${p.id}-question`}>
            <p id={`${p.id}-question`} ref={questionRef} tabIndex={-1}>
              {p.question}
            </p>
            <div className={styles.buttonRow}>
              <button
                type="button"
                className={`btn ${styles.btnDanger}`}
                aria-disabled={action.isPending || undefined}
                onClick={() => {
                  if (!action.isPending) action.mutate();
                }}
              >
                {p.yesLabel}
              </button>
              <button
                type="button"
                className="btn btn-secondary"
                onClick={() => {
                  if (action.isPending) return;
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
            {p.startLabel}
          </button>
        ))}
      <ActionOutcome name={p.outcomeName} outcome={outcome} messageRef={messageRef} className={styles.slot} />
    </div>
  );
}
