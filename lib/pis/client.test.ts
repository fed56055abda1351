import { describe, expect, it } from "vitest";
import { createPisClient } from "./index";
import { rejection, sandboxUrl } from "./test-helpers";
import { API_VERSIONS } from "./versions";

describe("the client as a whole", () => {
  it("speaks v0.3 unless told otherwise, and says which version it speaks", () => {
    expect(createPisClient({ baseUrl: "http://x/platform", clientId: "a", clientSecret: "b" }).version).toBe("v0.3");
    expect(
      createPisClient({ baseUrl: "http://x/platform", clientId: "a", clientSecret: "b", version: "v0.1" }).version,
    ).toBe("v0.1");
  });

  it("groups every operation by area", () => {
    const pis = createPisClient({ baseUrl: "http://x/platform", clientId: "a", clientSecret: "b" });
    const shape = Object.fromEntries(
      Object.entries(pis).flatMap(([area, ops]) =>
        typeof ops === "object" && area !== "profile" ? [[area, Object.keys(ops).sort()]] : [],
      ),
    );
    expect(shape).toEqual({
      general: ["countries"],
      banks: ["byCardNumberPiece", "get", "list"],
      project: ["paymentMethods", "settings"],
      payments: ["get", "initiate", "status"],
      refunds: ["create", "list"],
      auth: ["exchangeCode", "refresh", "start", "tokenContent"],
      accounts: ["balances", "get", "list", "transactions"],
    });
  });

  it.each(API_VERSIONS)("reports wrong credentials as a 401 from the sandbox, %s", async (version) => {
    const pis = createPisClient({
      baseUrl: `${sandboxUrl()}/platform`,
      clientId: "sandbox-client-id",
      clientSecret: "wrong",
      version,
    });
    const err = await rejection(pis.banks.list({ countryCode: "LT" }));
    expect(err).toMatchObject({ kind: "http", httpStatus: 401, outcomeUnknown: false, attempts: 1 });
  });
});
