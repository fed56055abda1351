import { createHash } from "node:crypto";
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
  return JSON.parse((await banksAnswer(country, c)).body) as BanksResponse;
}

/** The bank list as sent, with its strong ETag: made once per list the provider gave, not per request. */
const answers = new WeakMap<object, { body: string; etag: string }>();

export async function banksAnswer(country: string, c: CheckoutContext): Promise<{ body: string; etag: string }> {
  let banks;
  try {
    banks = await loadBanks(c, country);
  } catch (err) {
    if (err instanceof PisError) throw new CheckoutError("banks_unavailable");
    throw err;
  }
  let answer = answers.get(banks);
  if (!answer) {
    const body = JSON.stringify({ country, banks: toBankViews(banks, country) } satisfies BanksResponse);
    answer = { body, etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"` };
    answers.set(banks, answer);
  }
  return answer;
}
