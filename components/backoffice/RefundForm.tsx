"use client";

import { useActionState, useState, type FormEvent } from "react";
import { refundCheckout } from "@/app/backoffice/actions";
import { INITIAL_REFUND_STATE } from "./action-state";
import styles from "./backoffice.module.css";

interface RefundFormProps {
  checkoutId: string;
  /** What can still be refunded, as a decimal string. */
  refundable: string;
  /** The same, formatted for display ("€19.90"). */
  refundableText: string;
  currency: string;
  /** A duplicate payment to give back; absent for the payment that paid the checkout. */
  attemptId?: string;
  title?: string;
}

/** One key per refund the form sends: a double submit or a resent request refunds once. */
function newRefundKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Full or partial refund of a paid checkout (or of a duplicate payment); the server decides what is allowed. */
export function RefundForm({ checkoutId, refundable, refundableText, currency, attemptId, title = "Refund this payment" }: RefundFormProps) {
  const [state, action, pending] = useActionState(refundCheckout, INITIAL_REFUND_STATE);
  // A new key once the last refund has its answer, so the next refund is a new one.
  const [keyed, setKeyed] = useState(() => ({ state, refundKey: newRefundKey() }));
  if (keyed.state !== state) setKeyed({ state, refundKey: newRefundKey() });
  const { refundKey } = keyed;
  const id = attemptId ? `refund-${attemptId}` : "refund";
  const failed = state.ok === false ? state : null;
  // React resets the form after each submission: a refused one gets back what staff typed.
  const amount = failed ? failed.values.amount : refundable;
  const reason = failed ? failed.values.reason : "";

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    // A second click while the first refund is on its way must not send a second refund.
    if (pending) event.preventDefault();
  };

  const nothingLeft = /^0+(\.0+)?$/.test(refundable);

  return (
    <section className={styles.refundForm} aria-labelledby={`${id}-form-heading`}>
      <h3 id={`${id}-form-heading`}>{title}</h3>
      <p className={styles.refundable}>Refundable: {refundableText}</p>
      {nothingLeft ? (
        <p className="muted">Nothing is left to refund.</p>
      ) : (
        <form action={action} onSubmit={onSubmit} className={styles.form} noValidate>
          <input type="hidden" name="checkoutId" value={checkoutId} />
          <input type="hidden" name="refundKey" value={refundKey} />
          {attemptId && <input type="hidden" name="attemptId" value={attemptId} />}
          <div className="field">
            <label htmlFor={`${id}-amount`}>Amount</label>
            <p className="hint" id={`${id}-amount-hint`}>
              In {currency}. Less than the refundable amount makes a partial refund.
            </p>
            <input
              id={`${id}-amount`}
              name="amount"
              type="text"
              inputMode="decimal"
              autoComplete="off"
              required
              key={`amount-${refundable}`}
              defaultValue={amount}
              aria-invalid={failed?.field === "amount" || undefined}
              aria-describedby={failed?.field === "amount" ? `${id}-amount-hint ${id}-error` : `${id}-amount-hint`}
            />
          </div>
          <div className="field">
            <label htmlFor={`${id}-reason`}>
              Reason <span className="muted">(optional)</span>
            </label>
            <input
              id={`${id}-reason`}
              name="reason"
              type="text"
              maxLength={200}
              autoComplete="off"
              defaultValue={reason}
              aria-invalid={failed?.field === "reason" || undefined}
              aria-describedby={failed?.field === "reason" ? `${id}-error` : undefined}
            />
          </div>
          <div role="alert" aria-label="Refund error" id={`${id}-error`} className={styles.slot}>
            {failed && <p className="alert alert-error">{failed.error}</p>}
          </div>
          <div>
            <button type="submit" className="btn btn-primary" aria-disabled={pending || undefined}>
              Refund
            </button>
          </div>
        </form>
      )}
      {/* Outside the form, so the confirmation stays when the last refund removes the fields. */}
      <div role="status" aria-label="Refund result" className={styles.slot}>
        {state.ok === true && <p className="alert alert-success">{state.message}</p>}
      </div>
    </section>
  );
}
