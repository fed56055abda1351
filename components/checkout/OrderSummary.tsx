import type { CheckoutView } from "@/lib/checkout/contract";
import { fromMinor, toMinor } from "@/lib/checkout/money";
import { format, messages, type Locale } from "@/lib/i18n";
import { formatMoney } from "@/components/ui/money";

interface OrderSummaryProps {
  checkout: Pick<CheckoutView, "creditorName" | "description" | "reference" | "amount" | "currency" | "lineItems">;
  locale: Locale;
  /**
   * Whether the order's lines show open. On the checkout page they stay folded into one line, so
   * the first bank stays on a phone's first screen; the landing page opens up to three.
   */
  itemsOpen: boolean;
}

/** The order as the server recorded it: the payer checks payee and amount before paying. */
export function OrderSummary({ checkout, locale, itemsOpen }: OrderSummaryProps) {
  const { creditorName, description, reference, amount, currency, lineItems } = checkout;
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
      {lineItems.length > 0 && (
        <details className="summary-items" open={itemsOpen || undefined}>
          <summary>{format(t["summary.items"], { count: lineItems.length })}</summary>
          <ul>
            {lineItems.map((line, i) => (
              <li key={i}>
                <span>
                  {line.quantity} × {line.name}
                </span>
                <span className="amount">
                  {formatMoney(
                    fromMinor(toMinor(line.unitAmount, currency) * BigInt(line.quantity), currency),
                    currency,
                    locale,
                  )}
                </span>
              </li>
            ))}
          </ul>
        </details>
      )}
      <p className="summary-total">
        <span>{t["summary.total"]}</span>
        <span className="amount" data-testid="order-amount">
          {formatMoney(amount, currency, locale)}
        </span>
      </p>
    </section>
  );
}
