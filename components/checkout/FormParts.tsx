"use client";

import { useId, type ReactNode } from "react";
import type { UseFormRegisterReturn } from "react-hook-form";
import { templateParts } from "@/lib/i18n/format";

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
