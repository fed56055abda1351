"use client";

import { useDeferredValue, useEffect, useImperativeHandle, useMemo, useRef, useState, type Ref } from "react";
import type { BankView } from "@/lib/checkout/contract";
import { format, type MessagesFor } from "@/lib/i18n/format";
import type { BanksState } from "./use-banks-query";
import { filterBanks, lastUsedFirst } from "./filter";

export type PickerMessages = MessagesFor<"picker." | "common.tryAgain">;

export interface BankPickerHandle {
  /** Focus the chosen bank, else the first bank, else the search box or whatever the payer can act on. */
  focus(): void;
}

interface BankPickerProps {
  state: BanksState;
  /** The country's name in the page language, for the empty state. */
  countryName: string;
  value: string;
  onChange(bankId: string): void;
  lastUsedId: string | null;
  /** id of the inline error text when the bank is missing. */
  errorId?: string;
  /** Switch to "choose my bank on the next page" (offered when nothing can be chosen here). */
  onUseHosted?(): void;
  messages: PickerMessages;
  ref?: Ref<BankPickerHandle>;
}

/** How many banks are drawn at first: enough for any real country, cheap even for 3,000. */
const FIRST_SHOWN = 48;

function isHttpUrl(url: string | null): url is string {
  return url !== null && /^https?:\/\//i.test(url);
}

function BankLogo({ bank }: { bank: BankView }) {
  const [broken, setBroken] = useState(false);
  if (!isHttpUrl(bank.logoUrl) || broken) {
    return (
      <span className="bank-logo bank-logo-fallback" aria-hidden="true">
        {bank.name.slice(0, 1).toUpperCase()}
      </span>
    );
  }
  return (
    // eslint-disable-next-line @next/next/no-img-element -- a remote logo on the provider's origin; the name sits beside it
    <img
      className="bank-logo"
      src={bank.logoUrl}
      alt=""
      width={32}
      height={32}
      loading="lazy"
      decoding="async"
      referrerPolicy="no-referrer"
      onError={() => setBroken(true)}
    />
  );
}

/**
 * The bank list as one radio group (arrow keys move and choose, Tab leaves), with a search box
 * above it that ignores case and diacritics and knows short names. The payer's last-used bank comes
 * first, then the country's popular banks, then the rest by name.
 */
/** No bank to show: says why, and offers to let the provider's page do the choosing. */
function EmptyState(p: { title: string; hint: string; useHosted: string; onUseHosted?: () => void; announce?: boolean }) {
  return (
    <div className="empty-state" role={p.announce ? "status" : undefined} id="bank-picker-status" tabIndex={-1}>
      <p>
        <strong>{p.title}</strong>
      </p>
      <p className="muted small">{p.hint}</p>
      {p.onUseHosted && (
        <button type="button" className="btn btn-secondary" onClick={p.onUseHosted}>
          {p.useHosted}
        </button>
      )}
    </div>
  );
}

export function BankPicker({ state, countryName, value, onChange, lastUsedId, errorId, onUseHosted, messages: t, ref }: BankPickerProps) {
  const [query, setQuery] = useState("");
  const deferredQuery = useDeferredValue(query);
  const [showAll, setShowAll] = useState(false);
  const groupRef = useRef<HTMLDivElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const focusAfterShowAll = useRef(false);

  const banks = state.status === "ready" ? state.banks : null;
  const ordered = useMemo(() => (banks ? lastUsedFirst(banks, lastUsedId) : []), [banks, lastUsedId]);
  const matches = useMemo(() => filterBanks(ordered, deferredQuery), [ordered, deferredQuery]);
  const shown = showAll ? matches : matches.slice(0, FIRST_SHOWN);
  const searching = deferredQuery.trim() !== "";

  function firstRadio(): HTMLInputElement | null {
    return groupRef.current?.querySelector<HTMLInputElement>('input[type="radio"]') ?? null;
  }

  useImperativeHandle(
    ref,
    () => ({
      focus() {
        const group = groupRef.current;
        const target =
          group?.querySelector<HTMLElement>('input[type="radio"]:checked') ??
          group?.querySelector<HTMLElement>('input[type="radio"]') ??
          searchRef.current ??
          document.getElementById("bank-picker-status");
        target?.focus();
      },
    }),
    [],
  );

  useEffect(() => {
    // "Show all" disappears when pressed: focus moves to the first bank it revealed.
    if (!showAll || !focusAfterShowAll.current) return;
    focusAfterShowAll.current = false;
    groupRef.current?.querySelectorAll<HTMLInputElement>('input[type="radio"]')[FIRST_SHOWN]?.focus();
  }, [showAll]);

  if (state.status === "loading") {
    return (
      <div className="bank-picker">
        <p className="label" id="bank-label">
          {t["picker.label"]}
        </p>
        <p role="status" className="muted small" id="bank-picker-status" tabIndex={-1}>
          {t["picker.loading"]}
        </p>
        <div className="bank-list" aria-hidden="true">
          <div className="skeleton" />
          <div className="skeleton" />
          <div className="skeleton" />
          <div className="skeleton" />
        </div>
      </div>
    );
  }

  if (state.status === "error") {
    return (
      <div className="bank-picker">
        <p className="label" id="bank-label">
          {t["picker.label"]}
        </p>
        <div className="alert alert-error" role="alert" id="bank-picker-status" tabIndex={-1}>
          <p>{t["picker.loadError"]}</p>
          <button type="button" className="btn btn-secondary" onClick={state.retry}>
            {t["common.tryAgain"]}
          </button>
        </div>
      </div>
    );
  }

  const all = state.banks;
  if (all.length === 0) {
    return (
      <div className="bank-picker">
        <p className="label" id="bank-label">
          {t["picker.label"]}
        </p>
        <EmptyState announce title={format(t["picker.noBanks"], { country: countryName })} hint={t["picker.noBanksHint"]} useHosted={t["picker.useHosted"]} onUseHosted={onUseHosted} />
      </div>
    );
  }

  return (
    <div className="bank-picker">
      <p className="label" id="bank-label">
        {t["picker.label"]}
      </p>
      <div className="field bank-search">
        <label htmlFor="bank-search" className="small">
          {t["picker.search"]}
        </label>
        <input
          ref={searchRef}
          id="bank-search"
          type="search"
          autoComplete="off"
          spellCheck={false}
          aria-describedby="bank-search-hint"
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setShowAll(false);
          }}
          onKeyDown={(e) => {
            // Enter must not submit the payment; Down goes to the results.
            if (e.key === "Enter") e.preventDefault();
            if (e.key === "ArrowDown") {
              const first = firstRadio();
              if (first) {
                e.preventDefault();
                first.focus();
              }
            }
          }}
        />
        <p id="bank-search-hint" className="hint">
          {t["picker.searchHint"]}
        </p>
      </div>
      <p className="visually-hidden" role="status" aria-live="polite">
        {searching ? format(t["picker.count"], { count: matches.length }) : ""}
      </p>

      <div
        ref={groupRef}
        hidden={matches.length === 0}
        role="radiogroup"
        id="bank-list"
        className="bank-list"
        aria-labelledby="bank-label"
        aria-required="true"
        aria-invalid={errorId ? true : undefined}
        aria-describedby={errorId}
      >
        {shown.map((bank) => {
          const last = bank.id === lastUsedId;
          const nameId = `bank-name-${bank.id}`;
          return (
            <label key={bank.id} className="choice bank-option">
              <input
                type="radio"
                name="bankId"
                value={bank.id}
                checked={value === bank.id}
                onChange={() => onChange(bank.id)}
                aria-labelledby={nameId}
                aria-describedby={last ? `bank-last-${bank.id}` : undefined}
              />
              <BankLogo bank={bank} />
              <span className="choice-text">
                <span className="bank-name" id={nameId}>
                  {bank.name}
                </span>
                {last && (
                  <span className="bank-badge" id={`bank-last-${bank.id}`}>
                    {t["picker.lastUsed"]}
                  </span>
                )}
              </span>
            </label>
          );
        })}
      </div>

      {matches.length > shown.length && (
        <button
          type="button"
          className="link-button show-all"
          onClick={() => {
            focusAfterShowAll.current = true;
            setShowAll(true);
          }}
        >
          {format(t["picker.showAll"], { count: matches.length })}
        </button>
      )}

      {matches.length === 0 && (
        <EmptyState title={format(t["picker.noMatch"], { query: deferredQuery.trim() })} hint={t["picker.noMatchHint"]} useHosted={t["picker.useHosted"]} onUseHosted={onUseHosted} />
      )}
    </div>
  );
}
