import { createHash } from "node:crypto";
import { PisError } from "../pis";
import { toBankViews } from "./bank-directory";
import { cachedPerClient } from "./cache";
import type { CheckoutContext } from "./context";
import { CheckoutError } from "./errors";
import { tell } from "./observer";
import type { BanksResponse } from "./contract";

// A code the provider knows no country for (400 InvalidCountryCode) has no banks, kept like any list
// so that asking again does not ask the provider again.
const loadBanks = cachedPerClient(10 * 60 * 1000, (ctx, country: string) =>
  ctx.pis.banks.list({ countryCode: country }).then(
    (banks) => {
      tell((o) => o.banksListed(banks.map((b) => b.id)));
      return banks;
    },
    (err: unknown) => {
      if (err instanceof PisError && err.providerName === "InvalidCountryCode") return [];
      throw err;
    },
  ),
);

/**
 * The banks the payer may choose from in one country. The list changes rarely and every payer
 * asks for it, so it is cached per process; a stale copy is served if the provider is down.
 */
export async function listBanks(country: string, c: CheckoutContext): Promise<BanksResponse> {
  return (await banksAnswer(country, c)).response;
}

/** The list as the page uses it and as the API sends it, with its strong ETag: made once per list the provider gave. */
interface BanksAnswer {
  response: BanksResponse;
  body: string;
  etag: string;
}
const answers = new WeakMap<object, BanksAnswer>();

export async function banksAnswer(country: string, c: CheckoutContext): Promise<BanksAnswer> {
  let banks;
  try {
    banks = await loadBanks(c, country);
  } catch (err) {
    if (err instanceof PisError) throw new CheckoutError("banks_unavailable", {}, { cause: err });
    throw err;
  }
  let answer = answers.get(banks);
  if (!answer) {
    const response: BanksResponse = { country, banks: toBankViews(banks, country) };
    const body = JSON.stringify(response);
    answer = { response, body, etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"` };
    answers.set(banks, answer);
  }
  return answer;
}

/**
 * Whether a country's banks are all the provider's test banks: before v0.3, which has no project
 * settings to say so, the one sign that the project is a test project. False while the provider
 * cannot be asked.
 */
export async function onlyTestBanks(country: string, c: CheckoutContext): Promise<boolean> {
  const banks = await loadBanks(c, country).catch((err: unknown) => {
    if (err instanceof PisError) return [];
    throw err;
  });
  return banks.length > 0 && banks.every((bank) => bank.isSandbox);
}
