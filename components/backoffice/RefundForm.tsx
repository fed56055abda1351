"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { refundCheckout } from "@/app/backoffice/actions";
import { staffKeys } from "./queries";
import { refundFields, type RefundFieldsInput } from "./refund-form-schema";
import { INITIAL_REFUND_STATE } from "./action-state";
import styles from "./backoffice.module.css";

type RefundFieldsOutput = z.output<typeof refundFields>;

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

/**
 * Full or partial refund of a paid checkout (or of a duplicate payment); the server decides what is
 * allowed. react-hook-form checks the fields with the rules the server action uses; the refund is a
 * mutation (one at a time, never retried by the library; the refund key makes a resend refund once),
 * and its answer invalidates the checkout's query (the refundable amount, the refunds) and the list's.
 */
export function RefundForm({
  checkoutId,
  refundable,
  refundableText,
  currency,
  attemptId,
  title = "Refund this payment",
}: RefundFormProps) {
  const queryClient = useQueryClient();
  const [refundKey, setRefundKey] = useState(newRefundKey);
  const [result, setResult] = useState<string | null>(null);
  const form = useForm<RefundFieldsInput, unknown, RefundFieldsOutput>({
    resolver: zodResolver(refundFields),
    defaultValues: { amount: refundable, reason: "" },
  });
  const { errors } = form.formState;
  const id = attemptId ? `refund-${attemptId}` : "refund";

  // After a refund the page's data says what is left: the form starts from it again.
  useEffect(() => {
    form.reset({ amount: refundable, reason: "" });
  }, [form, refundable]);

  const refund = useMutation({
    mutationFn: (values: RefundFieldsInput) => {
      const data = new FormData();
      data.set("checkoutId", checkoutId);
      data.set("refundKey", refundKey);
      if (attemptId) data.set("attemptId", attemptId);
      data.set("amount", values.amount);
      data.set("reason", values.reason);
      return refundCheckout(INITIAL_REFUND_STATE, data);
    },
    onMutate: () => setResult(null),
    onSuccess: (state) => {
      if (state.ok === true) {
        setResult(state.message);
        void queryClient.invalidateQueries({ queryKey: staffKeys.checkout(checkoutId) });
        void queryClient.invalidateQueries({ queryKey: staffKeys.checkouts() });
      } else if (state.ok === false) {
        form.setError(
          state.field ?? "root.server",
          { type: "server", message: state.error },
          { shouldFocus: state.field !== undefined },
        );
      }
    },
    onError: () =>
      form.setError("root.server", {
        type: "server",
        message: "The refund could not be sent. Check the refunds list before trying again.",
      }),
    // A new key once the last refund has its answer, so the next refund is a new one.
    onSettled: () => setRefundKey(newRefundKey()),
  });
  const error = errors.amount?.message ?? errors.reason?.message ?? errors.root?.server?.message;
  const submit = form.handleSubmit(() => {
    // The raw values go to the server action, which parses them itself.
    if (!refund.isPending) refund.mutate(form.getValues());
  });

  const nothingLeft = /^0+(\.0+)?$/.test(refundable);
  // A refund of all that was left removes the form with the button just pressed: focus moves to
  // the message that replaced it (the polite result says the refund started).
  const nothingLeftRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (nothingLeft && result && (!document.activeElement || document.activeElement === document.body))
      nothingLeftRef.current?.focus();
  }, [nothingLeft, result]);

  return (
    <section className={styles.refundForm} aria-labelledby={`${id}-form-heading`}>
      <h3 id={`${id}-form-heading`}>{title}</h3>
      <p className={styles.refundable}>Refundable: {refundableText}</p>
      {nothingLeft ? (
        <p className="muted" ref={nothingLeftRef} tabIndex={-1}>
          Nothing is left to refund.
        </p>
      ) : (
        <form onSubmit={(event) => void submit(event)} className={styles.form} noValidate>
          <div className="field">
            <label htmlFor={`${id}-amount`}>Amount</label>
            <p className="hint" id={`${id}-amount-hint`}>
              In {currency}. Less than the refundable amount makes a partial refund.
            </p>
            <input
              id={`${id}-amount`}
              {...form.register("amount")}
              type="text"
              inputMode="decimal"
              autoComplete="off"
              required
              aria-invalid={errors.amount ? true : undefined}
              aria-describedby={errors.amount ? `${id}-amount-hint ${id}-error` : `${id}-amount-hint`}
            />
          </div>
          <div className="field">
            <label htmlFor={`${id}-reason`}>
              Reason <span className="muted">(optional)</span>
            </label>
            <input
              id={`${id}-reason`}
              {...form.register("reason")}
              type="text"
              maxLength={200}
              autoComplete="off"
              aria-invalid={errors.reason ? true : undefined}
              aria-describedby={errors.reason ? `${id}-error` : undefined}
            />
          </div>
          <div role="alert" aria-label="Refund error" id={`${id}-error`} className={styles.slot}>
            {error && <p className="alert alert-error">{error}</p>}
          </div>
          <div>
            <button type="submit" className="btn btn-primary" aria-disabled={refund.isPending || undefined}>
              Refund
            </button>
          </div>
        </form>
      )}
      {/* Outside the form, so the confirmation stays when the last refund removes the fields. */}
      <div role="status" aria-label="Refund result" className={styles.slot}>
        {result && <p className="alert alert-success">{result}</p>}
      </div>
    </section>
  );
}
