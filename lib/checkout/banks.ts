import { PisError, type Bank } from "../pis";
import { defaultContext } from "./checkouts";
import type { CheckoutContext } from "./context";
import { toBankViews } from "./bank-directory";
import { CheckoutError } from "./errors";
import type { BanksResponse } from "./types";

const TTL_MS = 10 * 60 * 1000;
const cache = new Map<string, { at: number; banks: Bank[] }>();

/**
 * The banks the payer may choose from in one country. The list changes rarely and every payer
 * asks for it, so it is cached per process; a stale copy is served if the provider is down.
 */
export async function listBanks(country: string, ctx?: CheckoutContext): Promise<BanksResponse> {
  const c = ctx ?? (await defaultContext());
  const hit = cache.get(country);
  let banks = hit && Date.now() - hit.at < TTL_MS ? hit.banks : undefined;
  if (!banks) {
    try {
      banks = await c.pis.banks.list({ countryCode: country });
      cache.set(country, { at: Date.now(), banks });
    } catch (err) {
      if (!(err instanceof PisError)) throw err;
      if (hit) banks = hit.banks;
      else throw new CheckoutError(502, "banks_unavailable", "The list of banks could not be loaded. Please try again.");
    }
  }
  return { country, banks: toBankViews(banks, country) };
}
