import { PisError, type Bank, type PisClient } from "../pis";
import { toBankViews } from "./bank-directory";
import { cached } from "./cache";
import { defaultContext } from "./checkouts";
import type { CheckoutContext } from "./context";
import { CheckoutError } from "./errors";
import type { BanksResponse } from "./types";

const caches = new WeakMap<PisClient, (country: string) => Promise<Bank[]>>();

/**
 * The banks the payer may choose from in one country. The list changes rarely and every payer
 * asks for it, so it is cached per process; a stale copy is served if the provider is down.
 */
export async function listBanks(country: string, ctx?: CheckoutContext): Promise<BanksResponse> {
  const c = ctx ?? (await defaultContext());
  let load = caches.get(c.pis);
  if (!load) {
    load = cached(10 * 60 * 1000, (code: string) => c.pis.banks.list({ countryCode: code }));
    caches.set(c.pis, load);
  }
  try {
    return { country, banks: toBankViews(await load(country), country) };
  } catch (err) {
    if (err instanceof PisError) throw new CheckoutError(502, "banks_unavailable", "The list of banks could not be loaded. Please try again.");
    throw err;
  }
}
