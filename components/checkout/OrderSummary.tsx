import type { CheckoutView } from "@/lib/checkout/contract";
import { messages, type Locale } from "@/lib/i18n";
import { formatMoney } from "@/components/ui/money";

interface OrderSummaryProps {
  checkout: Pick<CheckoutView, "creditorName" | "description" | "reference" | "amount" | "currency">;
  locale: Locale;
}

/** The order as the server recorded it: the payer checks payee and amount before paying. */
export function OrderSummary({ checkout, locale }: OrderSummaryProps) {
  const { creditorName, description, reference, amount, currency } = checkout;
  const t = messages(locale);
  return (
    <section className="card" aria-labelledby="order-summary-heading">
      <h2 id="order-summary-heading">{t["summary.heading"]}</h2>
      <dl className="summary-list">
        <dt>{t["summary.payee"]}</dt>
        <dd>{creditorName}</dd>
        <dt>{t["summary.description"]}</dt>
        <dd>{description}</dd>
        <dt>{t["summary.reference"]}</dt>
        <dd>{reference}</dd>
      </dl>
      <p className="summary-total">
        <span>{t["summary.total"]}</span>
        <span className="amount" data-testid="order-amount">
          {formatMoney(amount, currency, locale)}
        </span>
      </p>
    </section>
  );
}
