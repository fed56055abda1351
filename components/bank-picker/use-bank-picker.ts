"use client";

import {
  useDeferredValue,
  useEffect,
  useImperativeHandle,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type Ref,
} from "react";
import type { BankView } from "@/lib/checkout/contract";
import { useChangedBeforeLive } from "@/components/checkout/early-input";
import { filterBanks, lastUsedFirst } from "./filter";

export interface BankPickerHandle {
  /** Focus the chosen bank, else the first bank, else the search box or whatever the payer can act on. */
  focus(): void;
}

/** How many banks are drawn at first: enough for any real country, cheap even for 3,000. */
export const FIRST_SHOWN = 48;

const radios = (group: HTMLElement | null) => group?.querySelectorAll<HTMLInputElement>('input[type="radio"]') ?? [];

/**
 * What the bank list shows and how the keyboard moves through it: the search (deferred, so
 * typing stays smooth with thousands of banks), the last-used bank first, the first 48 until
 * "Show all", and where focus goes when asked from outside (the form's error summary) or after
 * "Show all".
 */
export function useBankPicker(
  banks: readonly BankView[] | null,
  lastUsedId: string | null,
  ref?: Ref<BankPickerHandle>,
  initialSearch = "",
  initialShowAll = false,
) {
  const [query, setQueryState] = useState(initialSearch);
  const deferredQuery = useDeferredValue(query);
  const [showAll, setShowAll] = useState(initialShowAll);
  const groupRef = useRef<HTMLDivElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const focusAfterShowAll = useRef(false);

  useChangedBeforeLive("#bank-search", (value) => setQueryState(value));

  const ordered = useMemo(() => (banks ? lastUsedFirst(banks, lastUsedId) : []), [banks, lastUsedId]);
  const matches = useMemo(() => filterBanks(ordered, deferredQuery), [ordered, deferredQuery]);
  const shown = showAll ? matches : matches.slice(0, FIRST_SHOWN);

  useImperativeHandle(
    ref,
    () => ({
      focus() {
        const group = groupRef.current;
        const target =
          group?.querySelector<HTMLElement>('input[type="radio"]:checked') ??
          radios(group)[0] ??
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
    radios(groupRef.current)[FIRST_SHOWN]?.focus();
  }, [showAll]);

  return {
    query,
    /** The search as the list shows it (it trails the box by a render while the payer types). */
    searched: deferredQuery.trim(),
    matches,
    shown,
    hiddenCount: matches.length - shown.length,
    groupRef,
    searchRef,
    setQuery(value: string) {
      setQueryState(value);
      setShowAll(false);
    },
    /** Enter must not submit the payment; Down goes to the results. */
    onSearchKeyDown(e: KeyboardEvent<HTMLInputElement>) {
      if (e.key === "Enter") e.preventDefault();
      const first = radios(groupRef.current)[0];
      if (e.key === "ArrowDown" && first) {
        e.preventDefault();
        first.focus();
      }
    },
    showAll() {
      focusAfterShowAll.current = true;
      setShowAll(true);
    },
  };
}
