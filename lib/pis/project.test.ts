import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SETTINGS } from "./test-fixtures";
import { rejection, sandboxClient, SANDBOX_NOCARD, startRecordedProvider, type RecordedProvider } from "./test-helpers";

describe("project from the sandbox, v0.3", () => {
  it("lists bank and card for the test project", async () => {
    expect(await sandboxClient().project.paymentMethods()).toEqual(expect.arrayContaining(["bank", "card"]));
  });

  it("lists bank only for the project without cards", async () => {
    expect(await sandboxClient("v0.3", SANDBOX_NOCARD).project.paymentMethods()).toEqual(["bank"]);
  });

  it("reads the project settings, consistent with the payment methods", async () => {
    const pis = sandboxClient();
    const settings = await pis.project.settings();
    expect(settings.isSandbox).toBe(true);
    expect([...settings.paymentMethods].sort()).toEqual([...(await pis.project.paymentMethods())].sort());
    expect(Number.isInteger(settings.bankRefundDayLimit)).toBe(true);
  });
});

describe.each(["v0.1", "v0.2"] as const)("project from the sandbox, %s", (version) => {
  it("has no payment methods or settings before v0.3 (404)", async () => {
    expect(await rejection(sandboxClient(version).project.paymentMethods())).toMatchObject({
      kind: "http",
      httpStatus: 404,
    });
    expect(await rejection(sandboxClient(version).project.settings())).toMatchObject({ kind: "http", httpStatus: 404 });
  });
});

describe("project from recorded responses", () => {
  let provider: RecordedProvider;
  beforeAll(async () => {
    provider = await startRecordedProvider();
  });
  afterAll(() => provider.close());

  it("reads GET /auth/paymentMethods", async () => {
    provider.reply({ json: { data: ["bank", "card"] } });
    expect(await provider.client().project.paymentMethods()).toEqual(["bank", "card"]);
    expect(provider.only()).toMatchObject({ method: "GET", path: "/v0.3/auth/paymentMethods" });
  });

  it("refuses payment methods without the data wrapper", async () => {
    provider.reply({ json: ["bank"] });
    expect((await rejection(provider.client().project.paymentMethods())).kind).toBe("parse");
  });

  it("reads GET /auth/project/settings, a bare object", async () => {
    provider.reply({ json: { ...SETTINGS, somethingNew: true } });
    expect(await provider.client().project.settings()).toEqual(SETTINGS);
    expect(provider.only()).toMatchObject({ method: "GET", path: "/v0.3/auth/project/settings" });
  });

  it("refuses settings that lack a field we rely on", async () => {
    provider.reply({ json: { ...SETTINGS, bankRefundDayLimit: "90" } });
    const err = await rejection(provider.client().project.settings());
    expect(err.description).toContain("bankRefundDayLimit");
  });
});
