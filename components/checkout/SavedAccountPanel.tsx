"use client";

import { useMutation } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import type { Locale } from "@/lib/checkout/types";
import type { SavedAccountView, StartPaymentResponse } from "@/lib/checkout/contract";
import { format } from "@/lib/i18n/format";
import { fetchJson } from "@/components/query/fetch-json";
import { inQueryIsland } from "@/components/query/QueryIsland";
import { attemptKeyFor, clearAttemptKey } from "./attempt-key";
import { explain, linkToFollow } from "./pay-request";
import { FormButton } from "./FormButton";
import { LeavingStatus, TermsLabel } from "./FormParts";
import type { FormMessages } from "./PaymentForm";
import { useLeaveForBank } from "./use-leave-for-bank";
import { StartPaymentInput } from "@/lib/checkout/start-payment";

interface SavedAccountPanelProps {
  checkoutId: string;
  locale: Locale;
  amountText: string;
  account: SavedAccountView;
  /** The stored attempt key belongs to an attempt that is over: the first Pay starts a new one. */
  startNewAttempt: boolean;
  termsUrl: string;
  privacyUrl: string;
  /** As the payment form's: where its buttons post before the page's code runs. None in a frame. */
  post?: { action: string; attemptKey: string };
  messages: FormMessages;
  onPayAnotherWay(): void;
  onForgotten(): void;
}

/**
 * One-click payment from the customer's saved bank account: which account (bank, masked IBAN),
 * whether its balance covers the amount, and one Pay button. The provider skips the bank login
 * and the account choice; the payer only approves. Paying another way and forgetting the account
 * are one click away. An island of its own, with react-query, loaded only by the pages that show it
 * (ADR 26).
 */
export const SavedAccountPanel = inQueryIsland(Panel);

function Panel({
  checkoutId,
  locale,
  amountText,
  account,
  startNewAttempt,
  termsUrl,
  privacyUrl,
  post,
  messages: t,
  onPayAnotherWay,
  onForgotten,
}: SavedAccountPanelProps) {
  const [error, setError] = useState<{ text: string; retry: "pay" | "forget" | null } | null>(null);
  const [reloading, setReloading] = useState(false);
  const errorRef = useRef<HTMLDivElement>(null);
  const newAttemptPending = useRef(startNewAttempt);
  // In the merchant's page, the link to the bank, offered when the window has not left by itself.
  const { stuckLink, leave } = useLeaveForBank();
  const id = encodeURIComponent(checkoutId);

  useEffect(() => {
    if (error) errorRef.current?.focus();
  }, [error]);

  // Mutations, never retried by the library: the attempt key makes the payer's own Try again safe.
  const payment = useMutation({
    mutationFn: async () => {
      const body: StartPaymentInput = {
        method: "bank",
        savedAccount: true,
        termsAccepted: false,
        attemptKey: attemptKeyFor(checkoutId, newAttemptPending),
        lang: locale,
      };
      return linkToFollow(
        (
          await fetchJson<StartPaymentResponse>(`/api/checkouts/${id}/payments`, {
            method: "POST",
            body: JSON.stringify(body),
          })
        ).confirmLink,
      );
    },
    onMutate: () => setError(null),
    // The whole page goes to the bank (never a frame); Pay stays disabled meanwhile.
    onSuccess: (link) => leave(link),
    onError: (err) => {
      const what = explain(err, t);
      if (what.newKey) clearAttemptKey(checkoutId);
      setError({ text: t[what.key], retry: what.retry ? "pay" : null });
      if (what.reload) {
        setReloading(true);
        window.location.reload();
      }
    },
  });
  const forgetting = useMutation({
    mutationFn: () => fetchJson(`/api/checkouts/${id}/saved-account`, { method: "DELETE" }),
    onMutate: () => setError(null),
    onSuccess: () => onForgotten(),
    onError: () => setError({ text: t["saved.forgetError"], retry: "forget" }),
  });
  const busy = payment.isPending || payment.isSuccess || reloading ? "pay" : forgetting.isPending ? "forget" : null;
  const pay = () => {
    if (busy === null) payment.mutate();
  };
  const forget = () => {
    if (busy === null) forgetting.mutate();
  };

  const balanceNote =
    account.covers === true
      ? t["saved.covers"]
      : account.covers === false
        ? format(t["saved.short"], { amount: amountText })
        : null;
  const leavingText = busy === "pay" ? t["pay.leaving.bank"] : busy === "forget" ? t["saved.forgetting"] : "";

  return (
    <section className="stack saved-account" aria-labelledby="saved-heading">
      <h3 id="saved-heading">{t["saved.heading"]}</h3>
      <p className="saved-account-line">
        <strong>{format(t["saved.accountOf"], { bank: account.bankName })}</strong>
        {account.maskedIban && (
          <span className="iban" data-testid="saved-iban">
            {account.maskedIban}
          </span>
        )}
      </p>
      {balanceNote && (
        <p className={`small ${account.covers ? "saved-covers" : "alert alert-warning"}`} data-testid="saved-balance">
          {balanceNote}
        </p>
      )}
      <p className="hint">{t["saved.oneClickHint"]}</p>

      {error && (
        <div ref={errorRef} tabIndex={-1} className="alert alert-error" role="alert" aria-label={t["payError.label"]}>
          <p>{error.text}</p>
          {error.retry && (
            <button type="button" className="btn btn-secondary" onClick={error.retry === "pay" ? pay : forget}>
              {t["common.tryAgain"]}
            </button>
          )}
        </div>
      )}

      <div>
        <FormButton
          form={post && { method: "post", action: post.action }}
          fields={{ choice: "saved", attemptKey: post?.attemptKey ?? "", lang: locale }}
          className="btn btn-primary btn-block"
          disabled={busy !== null}
          onPress={pay}
        >
          {busy === "pay" ? t["pay.leaving.bank"] : format(t["saved.pay"], { amount: amountText })}
        </FormButton>
        <LeavingStatus stuckLink={stuckLink} text={leavingText} stuck={t["pay.stuck"]} follow={t["pay.continue"]} />
        <p className="hint">
          <TermsLabel
            template={t["saved.terms"]}
            terms={
              <a href={termsUrl} target="_blank" rel="noopener noreferrer">
                {t["pay.termsLink"]}
              </a>
            }
            privacy={
              <a href={privacyUrl} target="_blank" rel="noopener noreferrer">
                {t["pay.privacyLink"]}
              </a>
            }
          />
        </p>
      </div>
      <div className="saved-account-actions">
        <FormButton
          form={post && { method: "get", action: `/checkout/${id}` }}
          fields={{ lang: locale, another: "1" }}
          className="btn btn-secondary"
          disabled={busy !== null}
          onPress={onPayAnotherWay}
        >
          {t["saved.another"]}
        </FormButton>
        <FormButton
          form={post && { method: "post", action: `/checkout/${id}/saved-account/forget` }}
          fields={{ lang: locale }}
          className="link-button"
          disabled={busy !== null}
          onPress={forget}
        >
          {t["saved.forget"]}
        </FormButton>
      </div>
    </section>
  );
}
