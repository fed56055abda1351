import type { CheckoutView } from "@/lib/checkout/types";
import { formatMoney } from "@/components/ui/money";

type OrderSummaryProps = Pick<CheckoutView, "creditorName" | "description" | "reference" | "amount" | "currency">;

/** The order as the server recorded it: the payer checks payee and amount before paying. */
export function OrderSummary({ creditorName, description, reference, amount, currency }: OrderSummaryProps) {
  return (
    <section className="card" aria-labelledby="order-summary-heading">
      <h2 id="order-summary-heading">Order summary</h2>
      <dl className="summary-list">
        <dt>Pay to</dt>
        <dd>{creditorName}</dd>
        <dt>Description</dt>
        <dd>{description}</dd>
        <dt>Reference</dt>
        <dd>{reference}</dd>
      </dl>
      <p className="summary-total">
        <span>Total</span>
        <span className="amount" data-testid="order-amount">
          {formatMoney(amount, currency)}
        </span>
      </p>
    </section>
  );
}
