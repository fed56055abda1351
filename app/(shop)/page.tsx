import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { OrderNotice } from "@/components/shop/OrderNotice";
import { Shop, type ShopProduct } from "@/components/shop/Shop";
import { centsToDecimal } from "@/components/ui/money";
import { env } from "@/lib/env";
import { startCheckout } from "./actions";
import { CATALOGUE, CURRENCY, MAX_QUANTITY } from "./catalogue";

export const metadata: Metadata = { title: "Demo shop" };

interface ShopPageProps {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

export default async function ShopPage({ searchParams }: ShopPageProps) {
  // A pretend merchant for trying the checkout: it has no place in a deployment with real money.
  if (!env().sandbox) notFound();
  const { checkout } = await searchParams;
  const returnedCheckoutId = typeof checkout === "string" && /^[\w-]{1,100}$/.test(checkout) ? checkout : null;

  const products: ShopProduct[] = CATALOGUE.map((p) => ({
    id: p.id,
    name: p.name,
    description: p.description,
    priceCents: p.priceCents,
    price: centsToDecimal(p.priceCents),
    image: p.image,
  }));

  return (
    <main className="page page-wide">
      <header className="page-header">
        <h1>Demo shop</h1>
        <p>A pretend merchant: put something in the cart and pay by bank in the sandbox.</p>
        <p className="small">
          Keeping your own checkout page?{" "}
          <a href={`http://localhost:${env().embedDemoPort}/`}>
            See the bank picker embedded in another site&apos;s checkout
          </a>
          .
        </p>
      </header>
      {returnedCheckoutId && <OrderNotice checkoutId={returnedCheckoutId} />}
      <Shop products={products} currency={CURRENCY} maxQuantity={MAX_QUANTITY} action={startCheckout} />
    </main>
  );
}
