import { describe, expect, it } from "vitest";
import { EnvError, loadEnv, SANDBOX_DEFAULTS } from "./env";
import { REAL_PROVIDER_ENV } from "./env-fixtures";

describe("settings", () => {
  it("runs against the built-in sandbox with no settings at all", () => {
    const e = loadEnv({});
    expect(e).toMatchObject({
      sandbox: true,
      port: 3000,
      appUrl: "http://localhost:3000",
      pisBaseUrl: "http://localhost:3001/platform",
      pisApiVersion: "v0.3",
      pisClientSecret: SANDBOX_DEFAULTS.PIS_CLIENT_SECRET,
      databaseUrl: undefined,
    });
  });

  it("follows the sandbox port", () => {
    expect(loadEnv({ SANDBOX_PORT: "4001" }).pisBaseUrl).toBe("http://localhost:4001/platform");
  });

  it("stops with a message naming each bad setting", () => {
    const err = (() => {
      try {
        loadEnv({ PORT: "eighty", PIS_API_VERSION: "v9", DATABASE_URL: "mysql://x" });
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(EnvError);
    const message = (err as Error).message;
    expect(message).toMatch(/PORT/);
    expect(message).toMatch(/PIS_API_VERSION/);
    expect(message).toMatch(/DATABASE_URL/);
  });

  it("requires real secrets and the merchant's account when a real provider is configured", () => {
    expect(() => loadEnv({ PIS_BASE_URL: "https://api.kevin.eu/platform" })).toThrow(/PIS_CLIENT_SECRET: required[\s\S]*CREDITOR_IBAN: required/);
  });

  it("takes a complete real-provider configuration", () => {
    const e = loadEnv({ ...REAL_PROVIDER_ENV, PIS_BASE_URL: "https://api.kevin.eu/platform/", CREDITOR_IBAN: "lt60 1010 0123 4567 8901" });
    expect(e).toMatchObject({ sandbox: false, pisBaseUrl: "https://api.kevin.eu/platform", creditorIban: "LT601010012345678901" });
  });
});

describe("token encryption keys", () => {
  it("reads rotated keys, newest first, and refuses a short key naming the setting", async () => {
    const { parseTokenKeys } = await import("./env");
    const k = (b: number) => Buffer.alloc(32, b).toString("base64");
    expect(parseTokenKeys(`new:${k(2)},old:${k(1)}`).map((x) => x.id)).toEqual(["new", "old"]);
    expect(() => parseTokenKeys(`x:${Buffer.alloc(16).toString("base64")}`)).toThrow(/TOKEN_ENCRYPTION_KEYS/);
  });
});
