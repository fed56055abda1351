"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { startTransition, useActionState, useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import * as z from "zod/mini";
import { centsToDecimal, formatMoney } from "@/components/ui/money";

export interface ShopProduct {
  id: string;
  name: string;
  description: string;
  priceCents: number;
  price: string;
  image: string;
}

export interface CheckoutFormState {
  error: string | null;
}

interface ShopProps {
  products: ShopProduct[];
  currency: string;
  maxQuantity: number;
  action: (state: CheckoutFormState, formData: FormData) => Promise<CheckoutFormState>;
}

/** Display only: the server recomputes the amount from its own catalogue. */
function centsLabel(cents: number, currency: string): string {
  return formatMoney(centsToDecimal(cents), currency);
}

/** The order form: a quantity per product, and something in the cart. The server re-checks both. */
const orderSchema = (maxQuantity: number) =>
  z.object({ cart: z.record(z.string(), z.number().check(z.int(), z.minimum(0), z.maximum(maxQuantity))) }).check(
    z.refine((v) => Object.values(v.cart).some((q) => q > 0), {
      message: "Add a product to your cart to check out.",
      path: ["cart"],
    }),
  );

export function Shop({ products, currency, maxQuantity, action }: ShopProps) {
  const [announcement, setAnnouncement] = useState("");
  const [state, formAction, pending] = useActionState(action, { error: null });
  const [schema] = useState(() => orderSchema(maxQuantity));
  const form = useForm<{ cart: Record<string, number> }>({
    resolver: zodResolver(schema),
    defaultValues: { cart: {} },
  });
  const cart = useWatch({ control: form.control, name: "cart" });

  const lines = products.filter((p) => (cart[p.id] ?? 0) > 0).map((p) => ({ product: p, quantity: cart[p.id] ?? 0 }));
  const totalCents = lines.reduce((sum, l) => sum + l.product.priceCents * l.quantity, 0);
  const itemCount = lines.reduce((sum, l) => sum + l.quantity, 0);
  const empty = lines.length === 0;

  function setQuantity(product: ShopProduct, quantity: number) {
    const next = Math.max(0, Math.min(maxQuantity, quantity));
    form.setValue("cart", { ...form.getValues("cart"), [product.id]: next });
    setAnnouncement(next === 0 ? `${product.name} removed from cart.` : `${product.name}: ${next} in cart.`);
  }

  return (
    <div className="shop-layout">
      <section aria-labelledby="products-heading">
        <h2 id="products-heading">Products</h2>
        <ul className="product-grid">
          {products.map((product) => {
            const quantity = cart[product.id] ?? 0;
            return (
              <li key={product.id} className="card product">
                {/* Decorative (the name is right below); a static local SVG needs no optimiser. */}
                {/* eslint-disable-next-line @next/next/no-img-element */}
                <img className="product-image" src={product.image} alt="" width={240} height={180} />
                <h3>{product.name}</h3>
                <p className="muted small">{product.description}</p>
                <p className="product-price">{formatMoney(product.price, currency)}</p>
                <button
                  type="button"
                  className="btn btn-secondary"
                  onClick={() => setQuantity(product, quantity + 1)}
                  disabled={quantity >= maxQuantity}
                >
                  Add {product.name} to cart
                </button>
              </li>
            );
          })}
        </ul>
      </section>

      <section className="card cart" aria-labelledby="cart-heading">
        <h2 id="cart-heading">Your cart</h2>
        <p className="visually-hidden" role="status" aria-live="polite">
          {announcement}
        </p>
        <form
          noValidate
          onSubmit={form.handleSubmit((v) => {
            // The server action takes the lines as form data, as it did from a plain form.
            const data = new FormData();
            for (const [productId, quantity] of Object.entries(v.cart).filter(([, q]) => q > 0)) {
              data.append("productId", productId);
              data.append("quantity", String(quantity));
            }
            startTransition(() => formAction(data));
          })}
        >
          {empty ? (
            <p className="muted">Your cart is empty.</p>
          ) : (
            <ul className="cart-lines">
              {lines.map(({ product, quantity }) => (
                <li key={product.id} className="cart-line">
                  <span>{product.name}</span>
                  <span className="cart-line-total">{centsLabel(product.priceCents * quantity, currency)}</span>
                  <span className="stepper">
                    <button
                      type="button"
                      className="btn btn-secondary"
                      aria-label={`Decrease quantity of ${product.name}`}
                      onClick={() => setQuantity(product, quantity - 1)}
                    >
                      <span aria-hidden="true">−</span>
                    </button>
                    <span className="stepper-count">
                      <span className="visually-hidden">Quantity of {product.name}: </span>
                      {quantity}
                    </span>
                    <button
                      type="button"
                      className="btn btn-secondary"
                      aria-label={`Increase quantity of ${product.name}`}
                      onClick={() => setQuantity(product, quantity + 1)}
                      disabled={quantity >= maxQuantity}
                    >
                      <span aria-hidden="true">+</span>
                    </button>
                  </span>
                  <button type="button" className="link-button small" onClick={() => setQuantity(product, 0)}>
                    Remove {product.name}
                  </button>
                </li>
              ))}
            </ul>
          )}

          <div className="summary-total">
            <span>
              Total{" "}
              <span className="muted small">
                ({itemCount} {itemCount === 1 ? "item" : "items"})
              </span>
            </span>
            <span className="amount" data-testid="cart-total">
              {centsLabel(totalCents, currency)}
            </span>
          </div>

          {state.error && (
            <div className="alert alert-error" role="alert" aria-label="Checkout error" style={{ marginTop: "1rem" }}>
              <p>{state.error}</p>
            </div>
          )}

          <button
            type="submit"
            className="btn btn-primary btn-block"
            style={{ marginTop: "1rem" }}
            disabled={empty || pending}
            aria-describedby={empty ? "checkout-reason" : undefined}
          >
            Checkout
          </button>
          {empty && (
            <p id="checkout-reason" className="hint" style={{ marginTop: "0.5rem" }}>
              Add a product to your cart to check out.
            </p>
          )}
          {pending && (
            <p className="hint" role="status" style={{ marginTop: "0.5rem" }}>
              Creating your checkout…
            </p>
          )}
        </form>
      </section>
    </div>
  );
}
