import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rejection, sandboxClient, startRecordedProvider, type RecordedProvider } from "./test-helpers";
import { API_VERSIONS } from "./versions";

describe.each(API_VERSIONS)("countries from the sandbox, %s", (version) => {
  it("lists the countries of the project's banks as alpha-2 codes", async () => {
    const countries = await sandboxClient(version).general.countries();
    expect(countries).toEqual(expect.arrayContaining(["LT", "LV", "EE"]));
  });
});

describe("countries from recorded responses", () => {
  let provider: RecordedProvider;
  beforeAll(async () => {
    provider = await startRecordedProvider();
  });
  afterAll(() => provider.close());

  it("reads {data: [...]} from GET /auth/countries", async () => {
    provider.reply({ json: { data: ["AT", "BE", "LT"] } });
    expect(await provider.client().general.countries()).toEqual(["AT", "BE", "LT"]);
    expect(provider.only()).toMatchObject({ method: "GET", path: "/v0.3/auth/countries" });
  });

  it("refuses a bare list without the data wrapper", async () => {
    provider.reply({ json: ["LT"] });
    expect((await rejection(provider.client().general.countries())).kind).toBe("parse");
  });
});
