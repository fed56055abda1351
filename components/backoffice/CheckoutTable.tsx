import Link from "next/link";
import { formatMoney } from "@/components/ui/money";
import type { StaffListing } from "@/lib/checkout/contract";
import type { CheckoutFilter } from "@/lib/checkout/backoffice-filter";
import { formatDateTime } from "./format";
import { hasFilters, listHref } from "./filters";
import { ListLink, RESULTS_HEADING_ID } from "./ListLink";
import { ScrollArea } from "./ScrollArea";
import { StatusBadge } from "./StatusBadge";
import styles from "./backoffice.module.css";

interface CheckoutTableProps {
  listing: StaffListing;
  filter: CheckoutFilter;
  /** The listing is the previous filter's while the new one loads. */
  loading: boolean;
}

export function CheckoutTable({ listing, filter, loading }: CheckoutTableProps) {
  const { items, page, hasMore, bankNames } = listing;
  const filtered = hasFilters(filter);
  return (
    <section className="card" aria-labelledby={RESULTS_HEADING_ID} aria-busy={loading || undefined}>
      <h2 id={RESULTS_HEADING_ID} tabIndex={-1}>
        Checkouts
      </h2>
      <p role="status" className="visually-hidden">
        {loading
          ? "Loading checkouts"
          : `${items.length === 0 ? "No" : items.length} ${items.length === 1 ? "checkout" : "checkouts"} on page ${page}`}
      </p>
      {items.length === 0 ? (
        <div className={styles.empty}>
          <p>
            {page > 1
              ? "No more checkouts on this page."
              : filtered
                ? "No checkouts match these filters."
                : "No checkouts yet."}
          </p>
          {filtered && (
            <p>
              <ListLink href="/backoffice">Clear filters</ListLink>
            </p>
          )}
        </div>
      ) : (
        <ScrollArea label="Checkouts table">
          <table className={styles.table}>
            <caption>
              {filtered ? "Checkouts matching the filters" : "All checkouts"}, newest first, page {page}
            </caption>
            <thead>
              <tr>
                <th scope="col">Created</th>
                <th scope="col">Reference</th>
                <th scope="col" className={styles.num}>
                  Amount
                </th>
                <th scope="col">Status</th>
                <th scope="col">Bank</th>
                <th scope="col" className={styles.num}>
                  Attempts
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((c) => (
                <tr key={c.id}>
                  <td className={styles.nowrap}>
                    <time dateTime={c.createdAt}>{formatDateTime(c.createdAt)}</time>
                  </td>
                  <th scope="row">
                    <Link href={`/backoffice/checkouts/${encodeURIComponent(c.id)}`}>{c.reference}</Link>
                  </th>
                  <td className={styles.num}>{formatMoney(c.amount, c.currency)}</td>
                  <td>
                    <StatusBadge status={c.status} />
                    {c.paidTwice && <strong className={styles.paidTwice}>Paid twice: refund one</strong>}
                  </td>
                  <td>{c.bankId ? (bankNames[c.bankId] ?? c.bankId) : <span className="muted">None</span>}</td>
                  <td className={styles.num}>{c.attempts}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollArea>
      )}
      {(page > 1 || hasMore) && (
        <nav className={styles.pagination} aria-label="Pages">
          {page > 1 ? <ListLink href={listHref(filter, page - 1)}>Previous page</ListLink> : <span />}
          {hasMore ? <ListLink href={listHref(filter, page + 1)}>Next page</ListLink> : <span />}
        </nav>
      )}
    </section>
  );
}
