"use client";

import { useActionState, type FormEvent } from "react";
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
}

/** Full or partial refund of a paid checkout; the server decides what is allowed. */
export function RefundForm({ checkoutId, refundable, refundableText, currency }: RefundFormProps) {
  const [state, action, pending] = useActionState(refundCheckout, INITIAL_REFUND_STATE);
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
    <section className={styles.refundForm} aria-labelledby="refund-form-heading">
      <h3 id="refund-form-heading">Refund this payment</h3>
      <p className={styles.refundable}>Refundable: {refundableText}</p>
      {nothingLeft ? (
        <p className="muted">Nothing is left to refund.</p>
      ) : (
        <form action={action} onSubmit={onSubmit} className={styles.form} noValidate>
          <input type="hidden" name="checkoutId" value={checkoutId} />
          <div className="field">
            <label htmlFor="refund-amount">Amount</label>
            <p className="hint" id="refund-amount-hint">
              In {currency}. Less than the refundable amount makes a partial refund.
            </p>
            <input
              id="refund-amount"
              name="amount"
              type="text"
              inputMode="decimal"
              autoComplete="off"
              required
              key={`amount-${refundable}`}
              defaultValue={amount}
              aria-invalid={failed?.field === "amount" || undefined}
              aria-describedby={failed?.field === "amount" ? "refund-amount-hint refund-error" : "refund-amount-hint"}
            />
          </div>
          <div className="field">
            <label htmlFor="refund-reason">
              Reason <span className="muted">(optional)</span>
            </label>
            <input
              id="refund-reason"
              name="reason"
              type="text"
              maxLength={200}
              autoComplete="off"
              defaultValue={reason}
              aria-invalid={failed?.field === "reason" || undefined}
              aria-describedby={failed?.field === "reason" ? "refund-error" : undefined}
            />
          </div>
          <div role="alert" aria-label="Refund error" id="refund-error" className={styles.slot}>
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
