"use client";

import { useQuery } from "@tanstack/react-query";
import { useImperativeHandle, useRef, useState, type Ref } from "react";
import type { BankView, BanksResponse } from "@/lib/checkout/types";
import { ApiError, errorMessage, requestJson } from "@/components/ui/api";

export interface BankPickerHandle {
  /** Focus the chosen bank, else the first bank, else whatever the payer can act on. */
  focus(): void;
}

interface BankPickerProps {
  country: string;
  name: string;
  value: string;
  onChange(bankId: string): void;
  onBlur?(): void;
  /** id of the inline error text, when there is one. */
  errorId?: string;
  ref?: Ref<BankPickerHandle>;
}

const SEARCH_FROM = 7;
const LAST_BANK_KEY = (country: string) => `lastBank:${country}`;

export function rememberBank(country: string, bankId: string): void {
  try {
    window.localStorage.setItem(LAST_BANK_KEY(country), bankId);
  } catch {
    // Storage may be unavailable (private mode); remembering is only a convenience.
  }
}

function readLastBank(country: string): string | null {
  if (typeof window === "undefined") return null;
  try {
    return window.localStorage.getItem(LAST_BANK_KEY(country));
  } catch {
    return null;
  }
}

async function fetchBanks(country: string, signal: AbortSignal): Promise<BanksResponse> {
  return requestJson<BanksResponse>(`/api/banks?country=${encodeURIComponent(country)}`, { signal });
}

function fold(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
}

function isHttpUrl(url: string | null): url is string {
  return url !== null && /^https?:\/\//i.test(url);
}

export function useBanks(country: string) {
  return useQuery({
    queryKey: ["banks", country],
    queryFn: ({ signal }) => fetchBanks(country, signal),
    staleTime: 5 * 60_000,
    retry: (failures, error) =>
      !(error instanceof ApiError && error.status >= 400 && error.status < 500) && failures < 2,
  });
}

export function BankPicker({ country, name, value, onChange, onBlur, errorId, ref }: BankPickerProps) {
  const { data, error, isPending, isError, refetch, isFetching } = useBanks(country);
  const [search, setSearch] = useState("");
  const fieldsetRef = useRef<HTMLFieldSetElement>(null);

  useImperativeHandle(
    ref,
    () => ({
      focus() {
        const root = fieldsetRef.current;
        if (!root) return;
        const target =
          root.querySelector<HTMLElement>('input[type="radio"]:checked') ??
          root.querySelector<HTMLElement>('input[type="radio"]') ??
          root.querySelector<HTMLElement>("button, input") ??
          root;
        target.focus();
      },
    }),
    [],
  );

  const banks: BankView[] = data?.banks ?? [];
  const lastBankId = data ? readLastBank(country) : null;
  const ordered = lastBankId
    ? [...banks.filter((b) => b.id === lastBankId), ...banks.filter((b) => b.id !== lastBankId)]
    : banks;
  const needle = fold(search.trim());
  const shown = needle
    ? ordered.filter(
        (b) => b.id === value || fold(b.name).includes(needle) || (b.officialName !== null && fold(b.officialName).includes(needle)),
      )
    : ordered;

  return (
    <fieldset
      ref={fieldsetRef}
      tabIndex={-1}
      aria-busy={isPending}
      aria-describedby={errorId}
      className={errorId ? "fieldset-invalid" : undefined}
    >
      <legend>Bank</legend>

      {isPending && (
        <>
          <p role="status" className="muted small">
            Loading banks…
          </p>
          <div className="bank-list" aria-hidden="true">
            <div className="skeleton" />
            <div className="skeleton" />
            <div className="skeleton" />
            <div className="skeleton" />
          </div>
        </>
      )}

      {isError && (
        <div className="alert alert-error" role="alert" aria-label="Bank list error">
          <p>We could not load the banks. {errorMessage(error)}</p>
          <button type="button" className="btn btn-secondary" onClick={() => void refetch()} disabled={isFetching}>
            {isFetching ? "Trying again…" : "Try again"}
          </button>
        </div>
      )}

      {data && banks.length === 0 && <p className="muted">No banks available in this country</p>}

      {data && banks.length > 0 && (
        <>
          {banks.length >= SEARCH_FROM && (
            <div className="field" style={{ marginBottom: "0.75rem" }}>
              <label htmlFor={`${name}-search`} className="small">
                Search banks
              </label>
              <input
                id={`${name}-search`}
                type="search"
                autoComplete="off"
                value={search}
                onChange={(e) => setSearch(e.target.value)}
                onKeyDown={(e) => {
                  // Enter in the search box must not submit the payment form.
                  if (e.key === "Enter") e.preventDefault();
                }}
              />
            </div>
          )}
          <div className="bank-list">
            {shown.map((bank, index) => {
              const isLast = bank.id === lastBankId;
              const nameId = `${name}-option-${index}`;
              return (
                <label key={bank.id} className="choice bank-option">
                  <input
                    type="radio"
                    name={name}
                    value={bank.id}
                    checked={value === bank.id}
                    onChange={() => onChange(bank.id)}
                    onBlur={onBlur}
                    aria-labelledby={isLast ? nameId : undefined}
                    aria-describedby={isLast ? `${nameId}-badge` : undefined}
                  />
                  {isHttpUrl(bank.logoUrl) ? (
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
                      onError={(e) => {
                        e.currentTarget.style.visibility = "hidden";
                      }}
                    />
                  ) : (
                    <span className="bank-logo bank-logo-fallback" aria-hidden="true">
                      {bank.name.slice(0, 1).toUpperCase()}
                    </span>
                  )}
                  <span className="choice-text">
                    <span className="bank-name" id={nameId}>
                      {bank.name}
                    </span>
                    {isLast && (
                      <span className="bank-badge" id={`${nameId}-badge`}>
                        Last used
                      </span>
                    )}
                  </span>
                </label>
              );
            })}
          </div>
          {shown.length === 0 && <p className="muted">No banks match “{search.trim()}”.</p>}
        </>
      )}
    </fieldset>
  );
}
