import { bank, list } from "./schemas";
import type { Transport } from "./transport";

export function banksApi(request: Transport) {
  return {
    /** Banks of the project, of one country when `countryCode` is given. */
    list: async (opts: { countryCode?: string } = {}) =>
      (
        await request({
          operation: "getBanks",
          method: "GET",
          path: "/auth/banks",
          query: { countryCode: opts.countryCode },
          schema: list(bank),
        })
      ).data,
    get: (bankId: string) =>
      request({ operation: "getBank", method: "GET", path: `/auth/banks/${encodeURIComponent(bankId)}`, schema: bank }),
  };
}
