import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { OrderSummary } from "@/components/checkout/OrderSummary";
import { PaymentStatus } from "@/components/payment-status/PaymentStatus";
import { getCheckout } from "@/lib/checkout/checkouts";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Payment status", robots: { index: false, follow: false } };

interface ReturnPageProps {
  params: Promise<{ checkoutId: string }>;
}

/**
 * Where the provider sends the payer back. Its query string is never read: the outcome comes
 * from the server, which asks the provider while the status is not final.
 */
export default async function ReturnPage({ params }: ReturnPageProps) {
  const { checkoutId } = await params;
  const checkout = await getCheckout(checkoutId);
  if (!checkout) notFound();

  return (
    <main className="page">
      <div className="stack">
        <PaymentStatus checkoutId={checkout.id} />
        <OrderSummary
          creditorName={checkout.creditorName}
          description={checkout.description}
          reference={checkout.reference}
          amount={checkout.amount}
          currency={checkout.currency}
        />
      </div>
    </main>
  );
}
