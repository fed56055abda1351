import type { Metadata } from "next";
import { bankNames } from "@/components/backoffice/bank-names";
import { CheckoutFilters } from "@/components/backoffice/CheckoutFilters";
import { CheckoutTable } from "@/components/backoffice/CheckoutTable";
import { parseFilter, type SearchParams } from "@/components/backoffice/filters";
import { PaymentsChart } from "@/components/backoffice/PaymentsChart";
import { requireStaff } from "@/components/backoffice/require-staff";
import { StaffFrame } from "@/components/backoffice/StaffFrame";
import styles from "@/components/backoffice/backoffice.module.css";
import { appContext } from "@/lib/checkout/app-context";
import { listCheckoutsForStaff, paymentStats } from "@/lib/checkout/backoffice";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Checkouts", robots: { index: false, follow: false } };

export default async function BackofficeHomePage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await requireStaff();
  const { filter, problems } = parseFilter(await searchParams);
  const ctx = await appContext();
  const [listing, stats] = await Promise.all([listCheckoutsForStaff(filter, ctx), paymentStats(30, ctx)]);

  // The bank filter offers the banks seen lately, and always the one being filtered on.
  const seenBanks = new Set<string>(stats.byBank.map((b) => b.bankId).filter((id): id is string => !!id));
  if (filter.bank) seenBanks.add(filter.bank);
  const names = await bankNames([...seenBanks, ...listing.items.map((i) => i.bankId)]);
  const bankOptions = [...seenBanks].map((id) => ({ id, name: names.get(id) ?? id })).sort((a, b) => a.name.localeCompare(b.name));

  return (
    <StaffFrame>
      <header className={styles.pageHeader}>
        <h1>Checkouts</h1>
        <p>Every checkout with its payments. Times are in UTC.</p>
      </header>
      {problems.length > 0 && (
        <div className="alert alert-warning" role="status">
          <ul>
            {problems.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        </div>
      )}
      <CheckoutFilters filter={filter} banks={bankOptions} />
      <CheckoutTable listing={listing} filter={filter} bankNames={names} />
      <PaymentsChart stats={stats} bankNames={names} />
    </StaffFrame>
  );
}
