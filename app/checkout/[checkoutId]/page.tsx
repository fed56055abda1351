import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { OrderSummary } from "@/components/checkout/OrderSummary";
import { PaymentForm } from "@/components/checkout/PaymentForm";
import { getCheckout } from "@/lib/checkout/checkouts";
import type { CheckoutView } from "@/lib/checkout/types";

export const dynamic = "force-dynamic";

// The checkout id in the URL is the payer's only credential: keep these pages out of indexes.
export const metadata: Metadata = { title: "Checkout", robots: { index: false, follow: false } };

interface CheckoutPageProps {
  params: Promise<{ checkoutId: string }>;
}

function returnLink(checkout: CheckoutView): string | null {
  try {
    const url = new URL(checkout.returnUrl);
    if (url.protocol !== "https:" && url.protocol !== "http:") return null;
    url.searchParams.set("checkout", checkout.id);
    return url.href;
  } catch {
    return null;
  }
}

export default async function CheckoutPage({ params }: CheckoutPageProps) {
  const { checkoutId } = await params;
  const checkout = await getCheckout(checkoutId);
  if (!checkout) notFound();

  const backToShop = returnLink(checkout);
  const statusHref = `/checkout/${encodeURIComponent(checkout.id)}/return`;

  return (
    <main className="page">
      <header className="page-header">
        <h1>Checkout</h1>
        <p>Pay {checkout.creditorName} directly from your bank account.</p>
      </header>
      <div className="stack">
        <OrderSummary
          creditorName={checkout.creditorName}
          description={checkout.description}
          reference={checkout.reference}
          amount={checkout.amount}
          currency={checkout.currency}
        />

        {checkout.status === "paid" ? (
          <section className="card" aria-labelledby="checkout-state-heading">
            <h2 id="checkout-state-heading">This order is already paid</h2>
            <p>There is nothing more to pay. Your bank has confirmed the payment.</p>
            {backToShop && (
              <a className="btn btn-secondary" href={backToShop}>
                Return to the shop
              </a>
            )}
          </section>
        ) : checkout.status === "expired" || checkout.status === "cancelled" ? (
          <section className="card" aria-labelledby="checkout-state-heading">
            <h2 id="checkout-state-heading">
              {checkout.status === "expired" ? "This checkout has expired" : "This checkout was cancelled"}
            </h2>
            <p>No payment was taken. To buy these items, go back to the shop and place the order again.</p>
            {backToShop && (
              <a className="btn btn-secondary" href={backToShop}>
                Return to the shop
              </a>
            )}
          </section>
        ) : (
          <section className="card" aria-labelledby="pay-heading">
            <h2 id="pay-heading">Pay by bank</h2>
            {checkout.status === "processing" && (
              <p className="alert alert-info small">
                A payment for this order has already been started. If you have approved it at your bank,{" "}
                <Link href={statusHref}>see the payment status</Link> instead of paying again.
              </p>
            )}
            {checkout.status === "failed" && (
              <p className="alert alert-warning small">
                Your last payment attempt did not go through, and no money was taken. You can try again.
              </p>
            )}
            <PaymentForm
              checkoutId={checkout.id}
              defaultCountry={checkout.country ?? "LT"}
              amount={checkout.amount}
              currency={checkout.currency}
              creditorName={checkout.creditorName}
              startNewAttempt={checkout.status === "failed"}
            />
          </section>
        )}
      </div>
    </main>
  );
}
