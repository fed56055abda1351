import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  credentials,
  getJson,
  linkAccount,
  nocardCredentials,
  startSandbox,
  type RunningSandbox,
} from "./test-helpers";

let s: RunningSandbox;
let token: string;

const NOW = Date.UTC(2027, 2, 10, 12); // 2027-03-10 12:00Z

beforeAll(async () => {
  s = await startSandbox({ now: () => NOW });
  token = (await linkAccount(s.api, "accounts_basic,accounts_balances,accounts_transactions", "SWEDBANK_LT_SAND"))
    .accessToken;
});
afterAll(async () => {
  await s.sandbox.close();
});

/** The five PSU headers the JVM client always sends. */
const PSU = {
  "PSU-IP-Address": "192.0.2.10",
  "PSU-IP-Port": "443",
  "PSU-User-Agent": "Mozilla/5.0",
  "PSU-Http-Method": "GET",
  "PSU-Device-ID": "device-1",
};
const ais = (path: string, headers: Record<string, string> = {}, bearer = token) =>
  getJson(`${s.api}/ais/accounts${path}`, { ...credentials, Authorization: `Bearer ${bearer}`, ...PSU, ...headers });

type Account = { id: string; iban: string };

describe("account information (v0.3)", () => {
  it("lists the linked user's two accounts, and shows one", async () => {
    const { status, json } = await ais("");
    expect(status).toBe(200);
    const accounts = (json as { data: Account[] }).data;
    expect(accounts).toEqual([
      {
        id: expect.stringMatching(/^[0-9a-f]{32}$/),
        iban: expect.stringMatching(/^LT\d{2}7300010000000001$/),
        type: "CACC",
        currencyCode: "EUR",
        name: "Everyday account",
      },
      {
        id: expect.stringMatching(/^[0-9a-f]{32}$/),
        iban: expect.stringMatching(/^LT\d{2}7300010000000002$/),
        type: "SVGS",
        currencyCode: "EUR",
        name: "Savings account",
      },
    ]);
    const first = accounts[0] as Account;
    expect(await ais(`/${first.id}`)).toEqual({
      status: 200,
      json: { iban: first.iban, type: "CACC", currencyCode: "EUR", name: "Everyday account", status: "enabled" },
    });
    expect(await ais("/0123")).toMatchObject({
      status: 404,
      json: { error: { name: "NotFound", description: "Account not found." } },
    });
  });

  it("generates the same transactions for the same days, newest first, today's not yet booked", async () => {
    const [account] = ((await ais("")).json as { data: Account[] }).data;
    const path = `/${account?.id}/transactions?dateFrom=2027-02-01&dateTo=2027-03-31`;
    const first = (await ais(path)).json as { data: Record<string, unknown>[] };
    expect(first.data.length).toBeGreaterThan(10);
    expect((await ais(path)).json).toEqual(first);
    const dates = first.data.map((t) => String(t.valueDate));
    expect(dates.every((d) => d >= "2027-02-01" && d <= "2027-03-10")).toBe(true);
    expect([...dates].sort().reverse()).toEqual(dates);
    for (const t of first.data) {
      expect(t).toMatchObject({
        id: expect.any(String),
        amount: expect.stringMatching(/^-?\d+\.\d{2}$/),
        currencyCode: "EUR",
        counterPartyName: expect.any(String),
        counterPartyAccount: { iban: expect.stringMatching(/^(LT|LV|EE)\d{2}/) },
        isBooked: t.valueDate !== "2027-03-10",
      });
      expect(t.bookingDate).toBe(t.isBooked ? t.valueDate : undefined);
    }
  });

  it("shows deterministic balances", async () => {
    const [account] = ((await ais("")).json as { data: Account[] }).data;
    const balance = await ais(`/${account?.id}/balance`);
    expect(balance).toEqual({
      status: 200,
      json: {
        data: [
          { type: "closingBooked", amount: expect.stringMatching(/^\d+\.\d{2}$/), currencyCode: "EUR" },
          { type: "interimAvailable", amount: expect.stringMatching(/^\d+\.\d{2}$/), currencyCode: "EUR" },
        ],
      },
    });
    expect((await ais(`/${account?.id}/balance`)).json).toEqual(balance.json);
  });

  it("checks the transaction dates, Joi-style", async () => {
    const [account] = ((await ais("")).json as { data: Account[] }).data;
    const cases: [string, string][] = [
      ["?dateTo=2027-03-01", '"dateFrom" is required'],
      ["?dateFrom=2027-03-01", '"dateTo" is required'],
      ["?dateFrom=2027-02-30&dateTo=2027-03-01", '"dateFrom" must be in yyyy-MM-dd format'],
      ["?dateFrom=2027-03-02&dateTo=2027-03-01", '"dateTo" must be greater than or equal to "ref:dateFrom"'],
    ];
    for (const [query, message] of cases) {
      expect(await ais(`/${account?.id}/transactions${query}`)).toMatchObject({
        status: 400,
        json: { error: { name: "InvalidRequest" }, data: message },
      });
    }
  });

  it("requires all five PSU headers, as the JVM client sends them", async () => {
    const cases: [Record<string, string>, string][] = [
      [{ "PSU-IP-Address": "" }, '"PSU-IP-Address" is required'],
      [{ "PSU-IP-Address": "not-an-ip" }, '"PSU-IP-Address" must be a valid ip address'],
      [{ "PSU-IP-Port": "" }, '"PSU-IP-Port" is required'],
      [{ "PSU-IP-Port": "70000" }, '"PSU-IP-Port" must be a valid port'],
      [{ "PSU-User-Agent": "" }, '"PSU-User-Agent" is required'],
      [{ "PSU-Http-Method": "FETCH" }, '"PSU-Http-Method" must be one of [GET, POST, PUT, PATCH, DELETE]'],
      [{ "PSU-Device-ID": "" }, '"PSU-Device-ID" is required'],
    ];
    for (const [headers, message] of cases) {
      expect(await ais("", headers)).toEqual({
        status: 400,
        json: { error: { code: 11000, name: "InvalidPsuHeaders", description: expect.any(String) }, data: message },
      });
    }
    expect((await ais("", { "PSU-IP-Address": "2001:db8::1" })).status).toBe(200);
  });

  it("answers 401 without a token, with another project's, or without the scope", async () => {
    expect((await getJson(`${s.api}/ais/accounts`, { ...credentials, ...PSU })).json).toMatchObject({
      error: { code: 10005, name: "InvalidToken" },
    });
    expect((await ais("", { ...nocardCredentials })).status).toBe(401);
    const basic = (await linkAccount(s.api, "accounts_basic")).accessToken;
    const [account] = ((await ais("", {}, basic)).json as { data: Account[] }).data;
    for (const path of [
      `/${account?.id}`,
      `/${account?.id}/balance`,
      `/${account?.id}/transactions?dateFrom=2027-03-01&dateTo=2027-03-02`,
    ]) {
      expect(await ais(path, {}, basic)).toMatchObject({
        status: 401,
        json: { error: { code: 10025, name: "InsufficientScope" } },
      });
    }
    const payments = (await linkAccount(s.api, "payments")).accessToken;
    expect((await ais("", {}, payments)).json).toMatchObject({
      error: {
        name: "InsufficientScope",
        description: 'The access token does not grant the "accounts_basic or accounts_details" scope.',
      },
    });
  });

  it("does not exist before v0.3", async () => {
    for (const version of ["v0.1", "v0.2"] as const) {
      expect(
        (await getJson(`${s.v(version)}/ais/accounts`, { ...credentials, Authorization: `Bearer ${token}`, ...PSU }))
          .json,
      ).toMatchObject({ error: { code: 10004 } });
    }
  });
});
