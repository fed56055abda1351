import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACCOUNT, ACCOUNT_DETAILS, BALANCE, TRANSACTION } from "./test-fixtures";
import { linkAccount, rejection, sandboxClient, startRecordedProvider, type RecordedProvider } from "./test-helpers";
import type { AccountPsu } from "./versions";

const PSU: AccountPsu = {
  ipAddress: "203.0.113.7",
  ipPort: "51234",
  userAgent: "Mozilla/5.0 (test)",
  httpMethod: "GET",
  deviceId: "device-1",
};

describe("account information with the sandbox, v0.3", () => {
  const pis = () => sandboxClient("v0.3");
  let accessToken = "";
  beforeAll(async () => {
    accessToken = (
      await linkAccount(pis(), ["accounts_basic", "accounts_details", "accounts_balances", "accounts_transactions"])
    ).accessToken;
  });

  it("lists the linked accounts, then reads one with its balances and transactions", async () => {
    const accounts = await pis().accounts.list(accessToken, PSU);
    expect(accounts.length).toBeGreaterThan(0);
    const id = accounts[0]?.id ?? "";
    expect(id).not.toBe("");

    const details = await pis().accounts.get(accessToken, id, PSU);
    expect(details.currencyCode).toMatch(/^[A-Z]{3}$/);
    expect(details.iban).not.toBe("");

    const balances = await pis().accounts.balances(accessToken, id, PSU);
    expect(balances.length).toBeGreaterThan(0);
    expect(balances.every((b) => /^-?\d+(\.\d+)?$/.test(b.amount))).toBe(true);

    const transactions = await pis().accounts.transactions(
      accessToken,
      id,
      { dateFrom: "2020-01-01", dateTo: "2030-12-31" },
      PSU,
    );
    expect(transactions.every((t) => typeof t.amount === "string" && typeof t.isBooked === "boolean")).toBe(true);
  });

  it("refuses an unknown access token", async () => {
    const err = await rejection(pis().accounts.list("not-a-token", PSU));
    expect(err.kind).toBe("http");
    expect([400, 401]).toContain(err.httpStatus);
  });
});

describe.each(["v0.1", "v0.2"] as const)("account information with the sandbox, %s", (version) => {
  it("has no account information before v0.3 (404)", async () => {
    expect(await rejection(sandboxClient(version).accounts.list("any-token", PSU))).toMatchObject({
      kind: "http",
      httpStatus: 404,
    });
  });
});

describe("account information from recorded responses", () => {
  let provider: RecordedProvider;
  beforeAll(async () => {
    provider = await startRecordedProvider();
  });
  afterAll(() => provider.close());

  const expectAisHeaders = () =>
    expect(provider.only().headers).toMatchObject({
      authorization: "Bearer tok",
      "psu-ip-address": "203.0.113.7",
      "psu-ip-port": "51234",
      "psu-user-agent": "Mozilla/5.0 (test)",
      "psu-http-method": "GET",
      "psu-device-id": "device-1",
    });

  it("lists accounts with the Bearer token and all five PSU headers", async () => {
    provider.reply({ json: { data: [ACCOUNT, { currencyCode: "EUR", pan: "4111********1111" }] } });
    const accounts = await provider.client().accounts.list("tok", PSU);
    expect(accounts).toEqual([ACCOUNT, { currencyCode: "EUR", pan: "4111********1111" }]);
    expect(provider.only()).toMatchObject({ method: "GET", path: "/v0.3/ais/accounts" });
    expectAisHeaders();
  });

  it("reads one account", async () => {
    provider.reply({ json: ACCOUNT_DETAILS });
    expect(await provider.client().accounts.get("tok", "acc/1", PSU)).toEqual(ACCOUNT_DETAILS);
    expect(provider.only().path).toBe("/v0.3/ais/accounts/acc%2F1");
    expectAisHeaders();
  });

  it("reads transactions of a date range, amounts exactly as sent", async () => {
    provider.reply({ text: JSON.stringify({ data: [TRANSACTION] }).replace('"amount":"-12.30"', '"amount":-12.30') });
    const transactions = await provider
      .client()
      .accounts.transactions("tok", "acc-1", { dateFrom: "2021-09-01", dateTo: "2021-09-30" }, PSU);
    expect(transactions).toEqual([TRANSACTION]);
    expect(provider.only()).toMatchObject({ method: "GET", path: "/v0.3/ais/accounts/acc-1/transactions" });
    expect(Object.fromEntries(provider.only().query)).toEqual({ dateFrom: "2021-09-01", dateTo: "2021-09-30" });
    expectAisHeaders();
  });

  it("reads balances from the singular /balance path", async () => {
    provider.reply({ json: { data: [BALANCE, { type: "interimAvailable", amount: "1000.00", currencyCode: "EUR" }] } });
    expect((await provider.client().accounts.balances("tok", "acc-1", PSU)).map((b) => b.type)).toEqual([
      "closingBooked",
      "interimAvailable",
    ]);
    expect(provider.only().path).toBe("/v0.3/ais/accounts/acc-1/balance");
    expectAisHeaders();
  });

  it("refuses account lists without the data wrapper", async () => {
    provider.reply({ json: [ACCOUNT] });
    expect((await rejection(provider.client().accounts.list("tok", PSU))).kind).toBe("parse");
  });

  it("retries an account read after a 5xx", async () => {
    provider.reply({ status: 500 }, { json: { data: [BALANCE] } });
    expect(await provider.client().accounts.balances("tok", "acc-1", PSU)).toEqual([BALANCE]);
    expect(provider.requests).toHaveLength(2);
  });
});
