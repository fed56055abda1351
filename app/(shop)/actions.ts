"use server";

import { randomBytes } from "node:crypto";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import type { CheckoutFormState } from "@/components/shop/Shop";
import { BankCheckout } from "@/clients/typescript/src";
import { centsToDecimal } from "@/components/ui/money";
import { env } from "@/lib/env";
import { CATALOGUE, CURRENCY, MAX_QUANTITY, findProduct } from "./catalogue";

const cartSchema = z
  .array(
    z.object({
      productId: z.string().refine((id) => findProduct(id) !== undefined, "Unknown product"),
      quantity: z.coerce.number().int().min(1).max(MAX_QUANTITY),
    }),
  )
  .min(1, "Your cart is empty")
  .max(CATALOGUE.length)
  .refine((lines) => new Set(lines.map((l) => l.productId)).size === lines.length, "Each product once");

/**
 * Creates a checkout for the submitted cart and sends the payer to it. Only in sandbox mode: a
 * server action is a public endpoint, and with a real provider this one would let anyone create
 * checkouts without the merchant's API key. It is a merchant backend like any other: it calls the
 * app's API over HTTP with the typed client and the sandbox's merchant key (dev-merchant-key unless
 * MERCHANT_API_KEY is set), so the demo goes through what merchants use.
 */
export async function startCheckout(_previous: CheckoutFormState, formData: FormData): Promise<CheckoutFormState> {
  if (!env().sandbox) return { error: "The demo shop exists only in sandbox mode." };
  // Whatever the signature says, the client sent the arguments: a form, or anything at all.
  if (!(formData instanceof FormData))
    return { error: "Your cart could not be read. Please check the quantities and try again." };
  const productIds = formData.getAll("productId");
  const quantities = formData.getAll("quantity");
  const parsed = cartSchema.safeParse(productIds.map((productId, i) => ({ productId, quantity: quantities[i] })));
  if (!parsed.success || productIds.length !== quantities.length) {
    return { error: "Your cart could not be read. Please check the quantities and try again." };
  }

  let totalCents = 0;
  for (const line of parsed.data) {
    const product = findProduct(line.productId);
    if (!product) return { error: "One of the products is no longer available." };
    totalCents += product.priceCents * line.quantity;
  }

  let checkoutId: string;
  try {
    const { appUrl, merchantApiKey } = env();
    // The payer is waiting: one retry at most, and a create answers in well under a second.
    const api = new BankCheckout({ baseUrl: appUrl, apiKey: merchantApiKey ?? "", timeoutMs: 10_000, maxRetries: 1 });
    const checkout = await api.checkouts.create({
      amount: centsToDecimal(totalCents),
      currency: CURRENCY,
      description: "Order from Demo shop",
      reference: `order-${randomBytes(5).toString("hex")}`,
      returnUrl: `${appUrl}/`,
      customerId: await demoCustomerId(),
    });
    checkoutId = checkout.id;
  } catch (error) {
    console.error("demo shop: could not create a checkout", error instanceof Error ? error.message : error);
    return { error: "We could not start the checkout right now. Please try again in a moment." };
  }
  // Outside the try: redirect() works by throwing.
  redirect(`/checkout/${encodeURIComponent(checkoutId)}`);
}

const CUSTOMER_COOKIE = "demo_shop_customer";

/**
 * The demo shop has no accounts, so each browser is one "signed-in customer": a real shop passes
 * its own customer id, which is what lets a payer save a bank account for one-click payments.
 */
async function demoCustomerId(): Promise<string> {
  const jar = await cookies();
  const known = jar.get(CUSTOMER_COOKIE)?.value;
  if (known && /^cust_[A-Za-z0-9_-]{16}$/.test(known)) return known;
  const id = `cust_${randomBytes(12).toString("base64url")}`;
  jar.set(CUSTOMER_COOKIE, id, {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    maxAge: 400 * 24 * 3600,
    secure: env().appUrl.startsWith("https:"),
  });
  return id;
}
