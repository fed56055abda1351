import Link from "next/link";
import { appContext } from "@/lib/checkout/app-context";
import { getCheckout } from "@/lib/checkout/checkouts";
import type { CheckoutView } from "@/lib/checkout/contract";

/**
 * What the shop shows a payer who comes back from the checkout (`/?checkout=<id>`). The status is
 * read from the server, never from the query string.
 */
export async function OrderNotice({ checkoutId }: { checkoutId: string }) {
  let checkout: CheckoutView | null = null;
  try {
    checkout = await getCheckout(checkoutId, await appContext());
  } catch {
    checkout = null;
  }
  if (!checkout) return null;

  const ref = checkout.reference;
  switch (checkout.status) {
    case "paid":
      return (
        <div className="alert alert-success" role="status" style={{ marginBottom: "1.5rem" }}>
          <p>Thank you! Your payment for order {ref} was received.</p>
        </div>
      );
    case "open":
    case "processing":
      return (
        <div className="alert alert-info" role="status" style={{ marginBottom: "1.5rem" }}>
          <p>
            Order {ref} is waiting for payment confirmation.{" "}
            <Link href={`/checkout/${encodeURIComponent(checkout.id)}/return`}>See the payment status</Link>
          </p>
        </div>
      );
    case "failed":
      return (
        <div className="alert alert-warning" role="status" style={{ marginBottom: "1.5rem" }}>
          <p>
            The payment for order {ref} did not go through.{" "}
            <Link href={`/checkout/${encodeURIComponent(checkout.id)}`}>Try paying again</Link>
          </p>
        </div>
      );
    default:
      return (
        <div className="alert alert-warning" role="status" style={{ marginBottom: "1.5rem" }}>
          <p>Order {ref} was not paid. You can start a new order below.</p>
        </div>
      );
  }
}
