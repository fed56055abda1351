"use client";

import { useId, type ReactNode } from "react";
import type { UseFormRegisterReturn } from "react-hook-form";
import { templateParts, type MessagesFor } from "@/lib/i18n/format";
import type { Choice } from "./payment-form";

export function TermsLabel({ template, terms, privacy }: { template: string; terms: ReactNode; privacy: ReactNode }) {
  return (
    <>
      {templateParts(template).map((part, i) =>
        typeof part === "string" ? (
          part
        ) : (
          <span key={i}>{part.slot === "terms" ? terms : part.slot === "privacy" ? privacy : null}</span>
        ),
      )}
    </>
  );
}

/**
 * The status line while Pay leaves for the bank: what is happening, or, when the window has not
 * left by itself in the merchant's page (use-leave-for-bank.ts), the link to follow.
 */
export function LeavingStatus(p: { stuckLink: string | null; text: string; stuck: string; follow: string }) {
  return (
    <p className={p.stuckLink ? "hint" : "visually-hidden"} role="status">
      {p.stuckLink ? (
        <>
          {p.stuck}{" "}
          <a href={p.stuckLink} target="_top">
            {p.follow}
          </a>
        </>
      ) : (
        p.text
      )}
    </p>
  );
}

/** The Terms checkbox the provider requires when the bank is chosen on our page, with its links (new tab) and error. */
export function TermsField(p: {
  field: UseFormRegisterReturn<"terms">;
  error: string | null;
  label: string;
  terms: { href: string; text: string };
  privacy: { href: string; text: string };
  newTab: string;
}) {
  const newTabId = `${useId()}-new-tab`;
  const link = (l: { href: string; text: string }) => (
    <a href={l.href} target="_blank" rel="noopener noreferrer" aria-describedby={newTabId}>
      {l.text}
    </a>
  );
  return (
    <div>
      <div className="checkbox-row">
        <input
          {...p.field}
          id="terms"
          type="checkbox"
          aria-invalid={p.error ? true : undefined}
          aria-describedby={p.error ? "terms-error" : undefined}
        />
        <label htmlFor="terms">
          <TermsLabel template={p.label} terms={link(p.terms)} privacy={link(p.privacy)} />
        </label>
      </div>
      <span id={newTabId} hidden>
        {p.newTab}
      </span>
      {p.error && (
        <p id="terms-error" className="field-error">
          {p.error}
        </p>
      )}
    </div>
  );
}

/** After a submit with fields missing: what to fix, each a link that moves focus to its field. */
export function ErrorSummary<F extends string>(p: {
  label: string;
  title: string;
  problems: { field: F; href: string; text: string }[];
  onFocus(field: F): void;
}) {
  return (
    <div className="alert alert-error" role="alert" aria-label={p.label}>
      <p>
        <strong>{p.title}</strong>
      </p>
      <ul>
        {p.problems.map((problem) => (
          <li key={problem.field}>
            <a
              href={problem.href}
              onClick={(event) => {
                event.preventDefault();
                p.onFocus(problem.field);
              }}
            >
              {problem.text}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** How to pay, when the shop offers more than one way: radio cards with a hint each. */
export function MethodChoice(p: {
  choices: readonly Choice[];
  field: UseFormRegisterReturn<"choice">;
  /** The choice as rendered: in the HTML too, so the form shows it before its code runs. */
  checked: Choice;
  messages: MessagesFor<"pay.method">;
}) {
  const t = p.messages;
  return (
    <fieldset className="method-choice">
      <legend>{t["pay.methodLegend"]}</legend>
      <div className="choice-list">
        {p.choices.map((c) => (
          <label key={c} className="choice">
            <input
              type="radio"
              {...p.field}
              value={c}
              defaultChecked={c === p.checked}
              aria-describedby={`method-hint-${c}`}
            />
            <span className="choice-text">
              <span>{t[`pay.method.${c}`]}</span>
              <span className="hint" id={`method-hint-${c}`}>
                {t[`pay.method.${c}Hint`]}
              </span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** What the payer agrees to before leaving for the bank: the amount, the payee, and where the money comes from. */
export function ConsentSummary(p: {
  amount: string;
  payee: string;
  from: string;
  messages: MessagesFor<"pay.consent.">;
}) {
  const t = p.messages;
  return (
    <section className="consent" aria-labelledby="consent-heading">
      <h3 id="consent-heading">{t["pay.consent.heading"]}</h3>
      <dl className="summary-list">
        <dt>{t["pay.consent.amount"]}</dt>
        <dd>{p.amount}</dd>
        <dt>{t["pay.consent.payee"]}</dt>
        <dd>{p.payee}</dd>
        <dt>{t["pay.consent.from"]}</dt>
        <dd data-testid="consent-from">{p.from}</dd>
      </dl>
    </section>
  );
}
