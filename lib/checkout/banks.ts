import { PisError } from "../pis";
import { toBankViews } from "./bank-directory";
import { cachedPerClient } from "./cache";
import type { CheckoutContext } from "./context";
import { CheckoutError } from "./errors";
import type { BanksResponse } from "./contract";

const loadBanks = cachedPerClient(10 * 60 * 1000, (ctx, country: string) =>
  ctx.pis.banks.list({ countryCode: country }),
);

/**
 * The banks the payer may choose from in one country. The list changes rarely and every payer
 * asks for it, so it is cached per process; a stale copy is served if the provider is down.
 */
export async function listBanks(country: string, c: CheckoutContext): Promise<BanksResponse> {
  try {
    return { country, banks: toBankViews(await loadBanks(c, country), country) };
  } catch (err) {
    if (err instanceof PisError) throw new CheckoutError("banks_unavailable");
    throw err;
  }
}
