import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BANK_V01, BANK_V03 } from "./test-fixtures";
import { rejection, sandboxClient, startRecordedProvider, type RecordedProvider } from "./test-helpers";
import { API_VERSIONS } from "./versions";

describe.each(API_VERSIONS)("banks from the sandbox, %s", (version) => {
  const pis = () => sandboxClient(version);

  it("lists the banks of one country", async () => {
    const banks = await pis().banks.list({ countryCode: "LT" });
    expect(banks.length).toBeGreaterThan(2);
    expect(banks.every((b) => b.countryCode === "LT" && b.isSandbox)).toBe(true);
  });

  it("lists every bank of the project without a country", async () => {
    const countries = new Set((await pis().banks.list()).map((b) => b.countryCode));
    expect([...countries]).toEqual(expect.arrayContaining(["LT", "LV", "EE"]));
  });

  it(version === "v0.3" ? "marks every bank as beta or not" : "sends banks without the v0.3 flags", async () => {
    const banks = await pis().banks.list({ countryCode: "LT" });
    if (version === "v0.3") expect(banks.every((b) => typeof b.isBeta === "boolean")).toBe(true);
    else expect(banks.every((b) => b.isBeta === undefined && b.scaApproaches === undefined)).toBe(true);
  });

  it("reads one bank as a bare object", async () => {
    const [first] = await pis().banks.list({ countryCode: "EE" });
    const one = await pis().banks.get(first!.id);
    expect(one).toMatchObject({ id: first!.id, countryCode: "EE", name: first!.name });
  });

  it("reports an unknown bank as a 404", async () => {
    expect(await rejection(pis().banks.get("NO_SUCH_BANK"))).toMatchObject({ kind: "http", httpStatus: 404 });
  });

  it("refuses a malformed country code with the provider's InvalidCountryCode", async () => {
    const err = await rejection(pis().banks.list({ countryCode: "lt" }));
    expect(err).toMatchObject({ kind: "http", httpStatus: 400, code: 10015, providerName: "InvalidCountryCode" });
  });
});

describe("bank by card number piece, from the sandbox, v0.3", () => {
  it("finds the bank that issued the universal test card 4111 1111 1111 1111", async () => {
    const bank = await sandboxClient().banks.byCardNumberPiece("411111");
    expect(bank.isSandbox).toBe(true);
    expect(typeof bank.isBeta).toBe("boolean");
  });

  it("reports a card of no known bank as a 404", async () => {
    expect(await rejection(sandboxClient().banks.byCardNumberPiece("415926"))).toMatchObject({
      kind: "http",
      httpStatus: 404,
    });
  });
});

describe("banks from recorded responses", () => {
  let provider: RecordedProvider;
  beforeAll(async () => {
    provider = await startRecordedProvider();
  });
  afterAll(() => provider.close());

  it("asks for one country with the countryCode query, and for all without it", async () => {
    provider.reply({ json: { data: [BANK_V03] } });
    expect(await provider.client().banks.list({ countryCode: "LT" })).toEqual([BANK_V03]);
    expect(provider.only()).toMatchObject({ method: "GET", path: "/v0.3/auth/banks" });
    expect(provider.only().query.get("countryCode")).toBe("LT");

    provider.reply({ json: { data: [] } });
    await provider.client().banks.list();
    expect(provider.only().query.has("countryCode")).toBe(false);
  });

  it("refuses a v0.3 bank without isBeta, naming the field", async () => {
    const { isBeta: _isBeta, ...withoutIsBeta } = BANK_V03;
    provider.reply({ json: { data: [withoutIsBeta] } });
    const err = await rejection(provider.client().banks.list());
    expect(err.kind).toBe("parse");
    expect(err.description).toContain("data.0.isBeta");
  });

  it.each(["v0.1", "v0.2"] as const)("reads a %s bank, which has no isBeta", async (version) => {
    provider.reply({ json: { data: [BANK_V01] } });
    expect(await provider.client(version).banks.list()).toEqual([BANK_V01]);
    expect(provider.only().path).toBe(`/${version}/auth/banks`);
  });

  it("refuses a list that is not wrapped in data", async () => {
    provider.reply({ json: [BANK_V03] });
    expect((await rejection(provider.client().banks.list())).kind).toBe("parse");
  });

  it("reads one bank bare, and refuses it wrapped", async () => {
    provider.reply({ json: BANK_V03 });
    expect(await provider.client().banks.get("SWEDBANK_LT")).toEqual(BANK_V03);
    expect(provider.only().path).toBe("/v0.3/auth/banks/SWEDBANK_LT");

    provider.reply({ json: { data: BANK_V03 } });
    expect((await rejection(provider.client().banks.get("SWEDBANK_LT"))).kind).toBe("parse");
  });

  it("escapes the bank id in the path", async () => {
    provider.reply({ json: BANK_V03 });
    await provider.client().banks.get("A/B?C");
    expect(provider.only().path).toBe("/v0.3/auth/banks/A%2FB%3FC");
  });

  it("looks a bank up by card number piece", async () => {
    provider.reply({ json: BANK_V03 });
    expect(await provider.client().banks.byCardNumberPiece("415926")).toEqual(BANK_V03);
    expect(provider.only()).toMatchObject({ method: "GET", path: "/v0.3/auth/banks/cards/415926" });
  });
});
