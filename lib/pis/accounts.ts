import {
  account,
  accountDetails,
  balance,
  list,
  transaction,
  type Account,
  type AccountDetails,
  type Balance,
  type Transaction,
} from "./schemas";
import { bearer, type Transport } from "./transport";
import { ALL_PSU_FIELDS, psuHeaders, type AccountPsu } from "./versions";

export interface TransactionRange {
  /** yyyy-MM-dd */
  dateFrom: string;
  /** yyyy-MM-dd */
  dateTo: string;
}

/** Account information (AIS): reads of a linked account, each with its access token and the PSU. */
export function accountsApi(request: Transport) {
  const headers = (accessToken: string, psu: AccountPsu) => ({
    Authorization: bearer(accessToken),
    ...psuHeaders(psu, ALL_PSU_FIELDS),
  });
  const path = (accountId: string) => `/ais/accounts/${encodeURIComponent(accountId)}`;

  return {
    /** GET /ais/accounts */
    list: async (accessToken: string, psu: AccountPsu): Promise<Account[]> =>
      (
        await request({
          operation: "getAccounts",
          method: "GET",
          path: "/ais/accounts",
          headers: headers(accessToken, psu),
          schema: list(account),
        })
      ).data,

    /** GET /ais/accounts/{accountId} */
    get: (accessToken: string, accountId: string, psu: AccountPsu): Promise<AccountDetails> =>
      request({
        operation: "getAccount",
        method: "GET",
        path: path(accountId),
        headers: headers(accessToken, psu),
        schema: accountDetails,
      }),

    /** GET /ais/accounts/{accountId}/transactions?dateFrom&dateTo */
    transactions: async (
      accessToken: string,
      accountId: string,
      range: TransactionRange,
      psu: AccountPsu,
    ): Promise<Transaction[]> =>
      (
        await request({
          operation: "getAccountTransactions",
          method: "GET",
          path: `${path(accountId)}/transactions`,
          query: { dateFrom: range.dateFrom, dateTo: range.dateTo },
          headers: headers(accessToken, psu),
          schema: list(transaction),
        })
      ).data,

    /** GET /ais/accounts/{accountId}/balance (singular path, a list answer). */
    balances: async (accessToken: string, accountId: string, psu: AccountPsu): Promise<Balance[]> =>
      (
        await request({
          operation: "getAccountBalance",
          method: "GET",
          path: `${path(accountId)}/balance`,
          headers: headers(accessToken, psu),
          schema: list(balance),
        })
      ).data,
  };
}
