"use client";

import { useEffect, useRef, type FormEvent } from "react";
import { FIRST_DAY, LAST_DAY, type CheckoutFilter } from "@/lib/checkout/backoffice-filter";
import { CHECKOUT_STATUSES } from "@/lib/checkout/types";
import { STATUS_LABELS } from "./format";
import { hasFilters, listHref, parseFilter } from "./filters";
import { ListLink, showList } from "./ListLink";
import styles from "./backoffice.module.css";

interface CheckoutFiltersProps {
  filter: CheckoutFilter;
  /** Bank ids to offer, with their display names. */
  banks: { id: string; name: string }[];
}

/**
 * The filters live in the address, so a filtered list can be bookmarked or shared. A GET form that
 * works before the script has loaded; once it has, applying changes the address and the list's
 * query follows it (first page, same parsing as the server).
 */
export function CheckoutFilters({ filter, banks }: CheckoutFiltersProps) {
  const form = useRef<HTMLFormElement>(null);
  const { q, status, bank, from, to } = filter;
  // The fields follow the address (Back, Forward, Clear filters, dates put in order) in place: a
  // form re-created for it would take the focus from the button or field the user just pressed.
  useEffect(() => {
    const fields = form.current?.elements;
    if (!fields) return;
    for (const [name, value] of Object.entries({ q, status, bank, from, to })) {
      const field = fields.namedItem(name);
      if (field instanceof HTMLInputElement || field instanceof HTMLSelectElement) field.value = value ?? "";
    }
  }, [q, status, bank, from, to]);
  const apply = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const values = Object.fromEntries([...new FormData(event.currentTarget)].map(([k, v]) => [k, String(v)]));
    showList(listHref(parseFilter(values).filter));
  };
  return (
    <form
      ref={form}
      method="get"
      action="/backoffice"
      role="search"
      className="card"
      aria-labelledby="filters-heading"
      onSubmit={apply}
    >
      <h2 id="filters-heading" className={styles.sectionHeading}>
        Find checkouts
      </h2>
      <div className={styles.filters}>
        <div className={`field ${styles.filterSearch}`}>
          <label htmlFor="filter-q">Reference or checkout id</label>
          <input id="filter-q" name="q" type="search" defaultValue={filter.q ?? ""} maxLength={64} autoComplete="off" />
        </div>
        <div className="field">
          <label htmlFor="filter-status">Status</label>
          <select id="filter-status" name="status" defaultValue={filter.status ?? ""}>
            <option value="">All statuses</option>
            {CHECKOUT_STATUSES.map((s) => (
              <option key={s} value={s}>
                {STATUS_LABELS[s]}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="filter-bank">Bank</label>
          <select id="filter-bank" name="bank" defaultValue={filter.bank ?? ""}>
            <option value="">All banks</option>
            {banks.map((b) => (
              <option key={b.id} value={b.id}>
                {b.name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="filter-from">From</label>
          <input
            id="filter-from"
            name="from"
            type="date"
            min={FIRST_DAY}
            max={LAST_DAY}
            defaultValue={filter.from ?? ""}
          />
        </div>
        <div className="field">
          <label htmlFor="filter-to">To</label>
          <input id="filter-to" name="to" type="date" min={FIRST_DAY} max={LAST_DAY} defaultValue={filter.to ?? ""} />
        </div>
        <div className={styles.filterActions}>
          <button type="submit" className="btn btn-primary">
            Apply filters
          </button>
          {hasFilters(filter) && <ListLink href="/backoffice">Clear filters</ListLink>}
        </div>
      </div>
    </form>
  );
}
