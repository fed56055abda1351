import type { Metadata } from "next";
import Link from "next/link";
import { CheckoutList } from "@/components/backoffice/CheckoutList";
import { filterQuery, parseFilter, type SearchParams } from "@/components/backoffice/filters";
import { PaymentsChart } from "@/components/backoffice/PaymentsChart";
import { requireStaff } from "@/components/backoffice/require-staff";
import { StaffFrame } from "@/components/backoffice/StaffFrame";
import styles from "@/components/backoffice/backoffice.module.css";
import { appContext } from "@/lib/checkout/app-context";
import { bankNames, listCheckoutsForStaff, paymentStats } from "@/lib/checkout/backoffice";
import { listRefundRequests } from "@/lib/refund-approvals/approvals";
import { allows } from "@/lib/staff/roles";

export const dynamic = "force-dynamic";

// Absolute: the back office's title template (its layout) applies to the pages below it, not to
// this one, which got the payer's site name instead.
export const metadata: Metadata = {
  title: { absolute: "Checkouts · Back office" },
  robots: { index: false, follow: false },
};

export default async function BackofficeHomePage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const member = await requireStaff("checkouts.view");
  const { filter } = parseFilter(await searchParams);
  const ctx = await appContext();
  const [listing, stats, waiting] = await Promise.all([
    listCheckoutsForStaff(filter, ctx),
    paymentStats(30, ctx),
    allows(member.role, "refunds.create") ? listRefundRequests(ctx, { waiting: true }) : Promise.resolve([]),
  ]);

  // The bank filter offers the banks seen lately, and always the one being filtered on.
  const seenBanks = new Set<string>(stats.byBank.map((b) => b.bankId).filter((id): id is string => !!id));
  if (filter.bank) seenBanks.add(filter.bank);
  const names = { ...listing.bankNames, ...(await bankNames(ctx, seenBanks)) };
  const bankOptions = [...seenBanks]
    .map((id) => ({ id, name: names[id] ?? id }))
    .sort((a, b) => a.name.localeCompare(b.name));

  return (
    <StaffFrame member={member}>
      <header className={styles.pageHeader}>
        <h1>Checkouts</h1>
        <p>Every checkout with its payments. Times are in UTC.</p>
      </header>
      {waiting.length > 0 && (
        <section aria-labelledby="waiting-heading" className="card">
          <h2 id="waiting-heading">Refunds waiting for approval</h2>
          <ul>
            {waiting.map((r) => (
              <li key={r.id}>
                <Link href={`/backoffice/checkouts/${r.checkoutId}`}>
                  {r.amount} asked by {r.requestedByEmail}
                </Link>
                {r.requestedBy === member.id && <span className="muted"> (yours: someone else approves it)</span>}
              </li>
            ))}
          </ul>
        </section>
      )}
      <CheckoutList initial={{ query: filterQuery(filter), listing }} banks={bankOptions} />
      <PaymentsChart stats={stats} bankNames={names} />
    </StaffFrame>
  );
}
