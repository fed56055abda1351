import { describe, expect, it } from "vitest";
import { loadEnv } from "../lib/env";
import { processesFor } from "./start-plan";

const realProvider = {
  PIS_BASE_URL: "https://api.kevin.eu/platform",
  PIS_CLIENT_ID: "id",
  PIS_CLIENT_SECRET: "secret",
  PIS_WEBHOOK_SECRET: "whsec",
  MERCHANT_API_KEY: "key",
  BACKOFFICE_PASSWORD: "pw",
  MERCHANT_NOTIFY_SECRET: "notify",
  TOKEN_ENCRYPTION_KEYS: `k1:${Buffer.alloc(32, 7).toString("base64")}`,
  CREDITOR_NAME: "Shop",
  CREDITOR_IBAN: "LT601010012345678901",
};

describe("npm start", () => {
  it("starts the sandbox provider beside the app when no provider is configured", () => {
    expect(processesFor(loadEnv({}), false).map((p) => p.name)).toEqual(["sandbox provider", "next"]);
  });

  it("does not start the sandbox when PIS_BASE_URL points at a real provider", () => {
    const plan = processesFor(loadEnv(realProvider), false);
    expect(plan.map((p) => p.name)).toEqual(["next"]);
    expect(plan.flatMap((p) => p.args).join(" ")).not.toContain("sandbox");
  });

  it("serves on the configured port", () => {
    expect(processesFor(loadEnv({ PORT: "4000" }), false).at(-1)!.args).toEqual(["node_modules/next/dist/bin/next", "start", "-p", "4000"]);
  });
});
