"use client";

import { useEffect, useRef, type ReactNode, type Ref } from "react";
import { useChangedBeforeLive } from "@/components/checkout/early-input";
import { format, type MessagesFor } from "@/lib/i18n/format";
import { BankLogo, EmptyState } from "./BankParts";
import { useBankPicker, type BankPickerHandle } from "./use-bank-picker";
import type { BanksState } from "./use-banks-query";

export type PickerMessages = MessagesFor<"picker." | "common.tryAgain">;
export type { BankPickerHandle };

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
  /** The search to start with (the page was asked again with it). */
  initialSearch?: string;
  /** Beside the search box: the server's `<noscript>` button that searches without the page's code. */
  searchButton?: ReactNode;
  /** Start with the whole list, not its first 48 (the page was asked for it without scripts). */
  initialShowAll?: boolean;
  /** Beside "Show all": the server's `<noscript>` button that asks the page again for the whole list. */
  showAllButton?: ReactNode;
  messages: PickerMessages;
  ref?: Ref<BankPickerHandle>;
}

/**
 * The bank list as one radio group (arrow keys move and choose, Tab leaves), with a search box
 * above it that ignores case and diacritics and knows short names. The payer's last-used bank comes
 * first, then the country's popular banks, then the rest by name. Its logic is useBankPicker.
 */
export function BankPicker({
  state,
  countryName,
  value,
  onChange,
  lastUsedId,
  errorId,
  onUseHosted,
  initialSearch,
  searchButton,
  initialShowAll,
  showAllButton,
  messages: t,
  ref,
}: BankPickerProps) {
  const { query, searched, matches, shown, hiddenCount, groupRef, searchRef, setQuery, onSearchKeyDown, showAll } =
    useBankPicker(state.status === "ready" ? state.banks : null, lastUsedId, ref, initialSearch, initialShowAll);
  useChangedBeforeLive("#bank-list input:checked", onChange);

  // "Try again" goes away when pressed: focus follows the list as it comes, to the loading message,
  // then to the search box (or to the error again, or to the empty list's message).
  const retrying = useRef(false);
  useEffect(() => {
    if (!retrying.current) return;
    if (state.status !== "loading") retrying.current = false;
    (searchRef.current ?? document.getElementById("bank-picker-status"))?.focus();
  }, [state.status, searchRef]);

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
          <button
            type="button"
            className="btn btn-secondary"
            onClick={() => {
              retrying.current = true;
              state.retry();
            }}
          >
            {t["common.tryAgain"]}
          </button>
        </div>
      </div>
    );
  }

  if (state.banks.length === 0) {
    return (
      <div className="bank-picker">
        <p className="label" id="bank-label">
          {t["picker.label"]}
        </p>
        <EmptyState
          announce
          title={format(t["picker.noBanks"], { country: countryName })}
          hint={t["picker.noBanksHint"]}
          useHosted={t["picker.useHosted"]}
          onUseHosted={onUseHosted}
        />
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
          name="q"
          type="search"
          autoComplete="off"
          spellCheck={false}
          aria-describedby="bank-search-hint"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={onSearchKeyDown}
        />
        {searchButton}
        <p id="bank-search-hint" className="hint">
          {t["picker.searchHint"]}
        </p>
      </div>
      <p className="visually-hidden" role="status" aria-live="polite">
        {searched ? format(t["picker.count"], { count: matches.length }) : ""}
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

      {hiddenCount > 0 && (
        <>
          <button type="button" className="link-button show-all" onClick={showAll}>
            {format(t["picker.showAll"], { count: matches.length })}
          </button>
          {showAllButton}
        </>
      )}

      {matches.length === 0 && (
        <EmptyState
          title={format(t["picker.noMatch"], { query: searched })}
          hint={t["picker.noMatchHint"]}
          useHosted={t["picker.useHosted"]}
          onUseHosted={onUseHosted}
        />
      )}
    </div>
  );
}
