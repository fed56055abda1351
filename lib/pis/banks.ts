import { list, type Bank } from "./schemas";
import type { Transport } from "./transport";
import type { VersionProfile } from "./versions";

export function banksApi(request: Transport, profile: VersionProfile) {
  return {
    /** GET /auth/banks: the project's banks, of one country when `countryCode` is given. */
    list: async (opts: { countryCode?: string } = {}): Promise<Bank[]> =>
      (
        await request({
          operation: "getBanks",
          method: "GET",
          path: "/auth/banks",
          query: { countryCode: opts.countryCode },
          schema: list(profile.bank),
        })
      ).data,

    /** GET /auth/banks/{bankId}: a bare bank object, not wrapped in `data`. */
    get: (bankId: string): Promise<Bank> =>
      request({
        operation: "getBank",
        method: "GET",
        path: `/auth/banks/${encodeURIComponent(bankId)}`,
        schema: profile.bank,
      }),

    /**
     * GET /auth/banks/cards/{cardNumberPiece}: the bank that issued a card, from the first digits
     * of its number. The PHP client dropped this call in 2022, so the provider may retire it.
     */
    byCardNumberPiece: (cardNumberPiece: string): Promise<Bank> =>
      request({
        operation: "getBankByCardNumberPiece",
        method: "GET",
        path: `/auth/banks/cards/${encodeURIComponent(cardNumberPiece)}`,
        schema: profile.bank,
      }),
  };
}
