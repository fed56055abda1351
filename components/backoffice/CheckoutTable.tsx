import Link from "next/link";
import { formatMoney } from "@/components/ui/money";
import type { listCheckoutsForStaff, CheckoutFilter } from "@/lib/checkout/backoffice";
import { formatDateTime } from "./format";
import { hasFilters, listHref } from "./filters";
import { ScrollArea } from "./ScrollArea";
import { StatusBadge } from "./StatusBadge";
import styles from "./backoffice.module.css";

type Listing = Awaited<ReturnType<typeof listCheckoutsForStaff>>;

interface CheckoutTableProps {
  listing: Listing;
  filter: CheckoutFilter;
  bankNames: Map<string, string>;
}

export function CheckoutTable({ listing, filter, bankNames }: CheckoutTableProps) {
  const { items, page, hasMore } = listing;
  const filtered = hasFilters(filter);
  return (
    <section className="card" aria-labelledby="checkouts-heading">
      <h2 id="checkouts-heading">Checkouts</h2>
      {items.length === 0 ? (
        <div className={styles.empty}>
          <p>{page > 1 ? "No more checkouts on this page." : filtered ? "No checkouts match these filters." : "No checkouts yet."}</p>
          {filtered && (
            <p>
              <Link href="/backoffice">Clear filters</Link>
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
                  <td>{c.bankId ? (bankNames.get(c.bankId) ?? c.bankId) : <span className="muted">None</span>}</td>
                  <td className={styles.num}>{c.attempts}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollArea>
      )}
      {(page > 1 || hasMore) && (
        <nav className={styles.pagination} aria-label="Pages">
          {page > 1 ? <Link href={listHref(filter, page - 1)}>Previous page</Link> : <span />}
          {hasMore ? <Link href={listHref(filter, page + 1)}>Next page</Link> : <span />}
        </nav>
      )}
    </section>
  );
}
