/**
 * The demo shop's products. Prices live here, on the server, in integer cents: the browser only
 * ever sends product ids and quantities, and the amount is computed from this list.
 */

export interface Product {
  id: string;
  name: string;
  description: string;
  priceCents: number;
  image: string;
}

export const CURRENCY = "EUR";
export const MAX_QUANTITY = 20;

export const CATALOGUE: readonly Product[] = [
  {
    id: "ceramic-mug",
    name: "Ceramic mug",
    description: "Hand-glazed, 350 ml.",
    priceCents: 1250,
    image: "/products/mug.svg",
  },
  {
    id: "linen-tote",
    name: "Linen tote bag",
    description: "Sturdy, washable, fits a laptop.",
    priceCents: 1800,
    image: "/products/tote.svg",
  },
  {
    id: "dot-notebook",
    name: "Dot-grid notebook",
    description: "A5, 120 pages.",
    priceCents: 475,
    image: "/products/notebook.svg",
  },
  {
    id: "coffee-beans",
    name: "Coffee beans",
    description: "Medium roast, 250 g.",
    priceCents: 990,
    image: "/products/coffee.svg",
  },
];

export function findProduct(id: string): Product | undefined {
  return CATALOGUE.find((p) => p.id === id);
}
