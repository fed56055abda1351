import { afterEach, describe, expect, it, vi } from "vitest";
import { EnvError, loadEnv, REQUIRED_WITH_REAL_PROVIDER, SANDBOX_DEFAULTS } from "./env";
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
    expect(() => loadEnv({ PIS_BASE_URL: "https://api.kevin.eu/platform" })).toThrow(
      /PIS_CLIENT_SECRET: required[\s\S]*CREDITOR_IBAN: required/,
    );
  });

  it("names every problem in one round: APP_URL beside the missing secrets, a bad value beside a missing one", () => {
    const problems = (settings: Record<string, string>) => {
      try {
        loadEnv(settings);
      } catch (e) {
        if (e instanceof EnvError) return e.problems.map((p) => p.slice(0, p.indexOf(":")));
        throw e;
      }
      return [];
    };
    expect(problems({ PIS_BASE_URL: "https://api.kevin.eu/platform" }).sort()).toEqual(
      [...REQUIRED_WITH_REAL_PROVIDER, "APP_URL"].sort(),
    );
    expect(
      problems({
        ...REAL_PROVIDER_ENV,
        PORT: "eighty",
        MERCHANT_API_KEY: "",
        APP_URL: "http://pay.shop.example",
        TOKEN_ENCRYPTION_KEYS: "k1:short",
      }).sort(),
    ).toEqual(["APP_URL", "MERCHANT_API_KEY", "PORT", "TOKEN_ENCRYPTION_KEYS"]);
    // A setting named once, however many checks it fails.
    expect(problems({ ...REAL_PROVIDER_ENV, APP_URL: "not a url" })).toEqual(["APP_URL"]);
  });

  it("takes a complete real-provider configuration", () => {
    const e = loadEnv({
      ...REAL_PROVIDER_ENV,
      PIS_BASE_URL: "https://api.kevin.eu/platform/",
      CREDITOR_IBAN: "lt12 1000 0111 0100 1000",
    });
    expect(e).toMatchObject({
      sandbox: false,
      pisBaseUrl: "https://api.kevin.eu/platform",
      creditorIban: "LT121000011101001000",
    });
  });

  it("refuses an IBAN whose check digits do not match (a typing error), in every mode", () => {
    for (const iban of ["LT601010012345678902", "LT061010012345678901", "DE89370400440532013001"]) {
      expect(() => loadEnv({ CREDITOR_IBAN: iban }), iban).toThrow(/CREDITOR_IBAN: .*check digits/);
      expect(() => loadEnv({ ...REAL_PROVIDER_ENV, CREDITOR_IBAN: iban }), iban).toThrow(
        /CREDITOR_IBAN: .*check digits/,
      );
    }
    for (const iban of ["DE89370400440532013000", "GB82 WEST 1234 5698 7654 32", "LT121000011101001000"])
      expect(loadEnv({ ...REAL_PROVIDER_ENV, CREDITOR_IBAN: iban }).creditorIban, iban).toBe(iban.replace(/ /g, ""));
  });
});

describe("sandbox mode off this machine", () => {
  it("refuses to start when PIS_BASE_URL is unset and APP_URL is a public address, naming PIS_BASE_URL and SANDBOX_MODE", () => {
    for (const appUrl of [
      "https://pay.example.com",
      "http://192.0.2.10:3000",
      "https://localhost.example.com",
      "http://127.0.0.1.nip.io",
    ]) {
      expect(() => loadEnv({ NODE_ENV: "production", APP_URL: appUrl }), appUrl).toThrow(
        /APP_URL: .*PIS_BASE_URL.*SANDBOX_MODE=true/,
      );
    }
  });

  it("starts with an APP_URL on this machine, or none (npm start, the e2e, bench, load and chaos rigs)", () => {
    for (const appUrl of [
      undefined,
      "http://localhost:3100",
      "http://127.0.0.1:4940",
      "http://[::1]:3000",
      "http://shop.localhost:3000",
    ])
      expect(loadEnv({ NODE_ENV: "production", APP_URL: appUrl }).sandbox, appUrl).toBe(true);
  });

  it("starts with a public APP_URL when SANDBOX_MODE=true says it is a public demo", () => {
    expect(loadEnv({ APP_URL: "https://demo.example.com", SANDBOX_MODE: "true" })).toMatchObject({
      sandbox: true,
      appUrl: "https://demo.example.com",
    });
  });

  it("refuses SANDBOX_MODE=true beside a real provider", () => {
    expect(() => loadEnv({ ...REAL_PROVIDER_ENV, SANDBOX_MODE: "true" })).toThrow(/SANDBOX_MODE: .*PIS_BASE_URL/);
  });
});

describe("deployment checks with a real provider", () => {
  const refusal = (settings: Record<string, string | undefined>) => {
    try {
      loadEnv({ ...REAL_PROVIDER_ENV, ...settings });
    } catch (e) {
      if (e instanceof EnvError) return e.problems;
      throw e;
    }
    return [];
  };

  it("takes a configuration fit for the internet", () => {
    expect(refusal({})).toEqual([]);
    expect(loadEnv(REAL_PROVIDER_ENV).allowPrivateUrls).toBe(false);
  });

  it("refuses each built-in development secret, in one line naming the setting", () => {
    for (const key of [
      "PIS_WEBHOOK_SECRET",
      "MERCHANT_API_KEY",
      "MERCHANT_NOTIFY_SECRET",
      "TOKEN_ENCRYPTION_KEYS",
      "PIS_CLIENT_SECRET",
    ] as const) {
      const problems = refusal({ [key]: SANDBOX_DEFAULTS[key] });
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatch(new RegExp(`^${key}: .*development`));
    }
  });

  it("refuses the sandbox's demo creditor: payers would pay an account that is not the merchant's", () => {
    expect(refusal({ CREDITOR_NAME: "Demo Shop UAB", CREDITOR_IBAN: "LT60 1010 0123 4567 8901" })).toEqual([
      expect.stringMatching(/^CREDITOR_IBAN: .*demo/),
      expect.stringMatching(/^CREDITOR_NAME: .*demo/),
    ]);
  });

  it("refuses an APP_URL that is not https, or none at all", () => {
    expect(refusal({ APP_URL: "http://pay.shop.example" })).toEqual([expect.stringMatching(/^APP_URL: .*https/)]);
    expect(refusal({ APP_URL: undefined })).toEqual([expect.stringMatching(/^APP_URL: /)]);
  });

  it("no longer reads BACKOFFICE_PASSWORD (staff have their own accounts), and says it was set", () => {
    expect(refusal({ BACKOFFICE_PASSWORD: "x" })).toEqual([]);
    expect(loadEnv({ ...REAL_PROVIDER_ENV, BACKOFFICE_PASSWORD: "x" }).legacyBackofficePassword).toBe(true);
    expect(loadEnv(REAL_PROVIDER_ENV).legacyBackofficePassword).toBe(false);
  });

  it("refuses a short merchant API key, and a short notification secret", () => {
    expect(refusal({ MERCHANT_API_KEY: "key" })).toEqual([expect.stringMatching(/^MERCHANT_API_KEY: .*at least 24/)]);
    expect(refusal({ MERCHANT_NOTIFY_SECRET: "x" })).toEqual([
      expect.stringMatching(/^MERCHANT_NOTIFY_SECRET: .*at least 24/),
    ]);
  });

  it("refuses the development token key under another id, first or last in the list", () => {
    const devKey = SANDBOX_DEFAULTS.TOKEN_ENCRYPTION_KEYS.split(":")[1];
    const own = `k2:${Buffer.alloc(32, 9).toString("base64")}`;
    for (const keys of [`k1:${devKey}`, `${own},old:${devKey}`])
      expect(refusal({ TOKEN_ENCRYPTION_KEYS: keys }), keys).toEqual([
        expect.stringMatching(/^TOKEN_ENCRYPTION_KEYS: .*development key/),
      ]);
  });

  it("refuses both of the sandbox's test projects (README), the one without cards too", () => {
    expect(
      refusal({
        PIS_CLIENT_ID: "sandbox-nocard-id",
        PIS_CLIENT_SECRET: "sandbox-nocard-secret",
        PIS_WEBHOOK_SECRET: "sandbox-nocard-webhook-secret",
      }),
    ).toEqual([
      expect.stringMatching(/^PIS_CLIENT_ID: .*development/),
      expect.stringMatching(/^PIS_CLIENT_SECRET: .*development/),
      expect.stringMatching(/^PIS_WEBHOOK_SECRET: .*development/),
    ]);
    expect(refusal({ PIS_CLIENT_ID: "sandbox-client-id" })).toEqual([expect.stringMatching(/^PIS_CLIENT_ID: /)]);
  });

  it("names every problem at once, so one restart fixes them all", () => {
    expect(
      refusal({
        APP_URL: "http://x.example",
        MERCHANT_NOTIFY_SECRET: "dev-notify-secret",
        MERCHANT_API_KEY: "dev-merchant-key",
      }),
    ).toHaveLength(3);
  });

  it("lets a test rig run against a sandbox on this machine only when ALLOW_INSECURE_SETTINGS says so", () => {
    const rig = {
      APP_URL: "http://localhost:3600",
      PIS_BASE_URL: "http://localhost:3601/platform",
      ...SANDBOX_DEFAULTS,
    };
    expect(refusal(rig).length).toBeGreaterThan(3);
    expect(refusal({ ...rig, ALLOW_INSECURE_SETTINGS: "true" })).toEqual([]);
  });

  it("refuses a plain-http provider (the Client-Secret in clear), but for a sandbox on this machine with ALLOW_INSECURE_SETTINGS", () => {
    expect(refusal({ PIS_BASE_URL: "http://api.kevin.eu/platform" })).toEqual([
      expect.stringMatching(/^PIS_BASE_URL: .*https/),
    ]);
    for (const url of ["http://api.kevin.eu/platform", "http://10.0.0.5:3001/platform"])
      expect(refusal({ PIS_BASE_URL: url, ALLOW_INSECURE_SETTINGS: "true" }), url).toEqual([
        expect.stringMatching(/^PIS_BASE_URL: .*https/),
      ]);
    expect(refusal({ PIS_BASE_URL: "http://127.0.0.1:3601/platform", ALLOW_INSECURE_SETTINGS: "true" })).toEqual([]);
  });

  it("refuses a PIS_BASE_URL that carries the API version (every call would go to /v0.3/v0.3), in any mode", () => {
    for (const url of ["https://api.kevin.eu/platform/v0.3", "https://api.kevin.eu/platform/v0.2/"])
      expect(refusal({ PIS_BASE_URL: url }), url).toEqual([
        expect.stringMatching(/^PIS_BASE_URL: .*without the API version.*PIS_API_VERSION/),
      ]);
    expect(
      refusal({ PIS_BASE_URL: "https://api.kevin.eu/platform/v0.3", ALLOW_INSECURE_SETTINGS: "true" }),
    ).toHaveLength(1);
  });

  it("allows merchant URLs on private networks only when ALLOW_PRIVATE_URLS says so (always in the sandbox)", () => {
    expect(loadEnv({ ...REAL_PROVIDER_ENV, ALLOW_PRIVATE_URLS: "true" }).allowPrivateUrls).toBe(true);
    expect(loadEnv({}).allowPrivateUrls).toBe(true);
  });
});

describe("a database that does not open", () => {
  it("is one line naming DATABASE_URL without its password, even when the URL cannot be read", async () => {
    const { databaseFailure } = await import("./env");
    const refused = Object.assign(new Error("connect ECONNREFUSED 10.0.0.5:5432"), { code: "ECONNREFUSED" });
    expect(databaseFailure({ databaseUrl: "postgres://app:s3cret@db:5432/checkout", pgliteDir: "" }, refused)).toBe(
      "DATABASE_URL (postgres://app:****@db:5432/checkout): could not open the database: connect ECONNREFUSED 10.0.0.5:5432 (nothing accepts connections there)",
    );
    const odd = databaseFailure({ databaseUrl: "postgres://app:s3%ZZ@db/x", pgliteDir: "" }, new Error("boom\nstack"));
    expect(odd).toBe("DATABASE_URL: could not open the database: boom");
  });
});

describe("start-up warnings", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
    delete (globalThis as { __envWarned?: boolean }).__envWarned;
  });

  it("says once, at start-up, that ALLOW_PRIVATE_URLS=true lets a real provider's checkouts reach private networks", async () => {
    expect(loadEnv({ ...REAL_PROVIDER_ENV, ALLOW_PRIVATE_URLS: "true" }).warnings).toEqual([
      expect.stringMatching(/^ALLOW_PRIVATE_URLS=true: /),
    ]);
    expect(loadEnv(REAL_PROVIDER_ENV).warnings).toEqual([]);
    expect(loadEnv({}).warnings).toEqual([]); // the sandbox allows them by default: nothing to say

    for (const [k, v] of Object.entries({ ...REAL_PROVIDER_ENV, ALLOW_PRIVATE_URLS: "true" })) vi.stubEnv(k, v);
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    vi.resetModules();
    (await import("./env")).env();
    vi.resetModules();
    (await import("./env")).env(); // another bundle of the same server
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]![0]).toMatch(/ALLOW_PRIVATE_URLS/);
  });
});

describe("confirm origins", () => {
  it("are the sandbox's own origin in the sandbox, and the API's and the hosted pages' with a real provider", () => {
    expect(loadEnv({ SANDBOX_PORT: "4001" }).confirmOrigins).toEqual(["http://localhost:4001"]);
    const real = loadEnv({ ...REAL_PROVIDER_ENV }).confirmOrigins;
    expect(real[0]).toBe(new URL(REAL_PROVIDER_ENV.PIS_BASE_URL).origin);
    expect(real).toContain("https://psd2.kevin.eu");
  });
});

describe("embed origins", () => {
  it("lets the demo merchant site frame the picker in the sandbox, and no one by default with a real provider", () => {
    expect(loadEnv({}).embedOrigins).toEqual(["http://localhost:3002"]);
    expect(loadEnv({ EMBED_DEMO_PORT: "4002" }).embedOrigins).toEqual(["http://localhost:4002"]);
    expect(loadEnv({ ...REAL_PROVIDER_ENV }).embedOrigins).toEqual([]);
  });

  it("takes https origins, written as a browser reports them", () => {
    expect(
      loadEnv({ ...REAL_PROVIDER_ENV, EMBED_ORIGINS: " https://Shop.Example , https://pay.shop.example:8443/" })
        .embedOrigins,
    ).toEqual(["https://shop.example", "https://pay.shop.example:8443"]);
  });

  it("refuses a plain-http origin off this machine, a path, or a wildcard, naming the setting", () => {
    for (const bad of [
      "http://shop.example",
      "https://shop.example/checkout",
      "https://*.shop.example",
      "shop.example",
    ])
      expect(() => loadEnv({ EMBED_ORIGINS: bad }), bad).toThrow(/EMBED_ORIGINS/);
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

describe(".env.example", () => {
  it("lists every setting with its meaning and default, as lib/env.ts says (npm run env:example)", async () => {
    const { readFileSync } = await import("node:fs");
    const { envExample, SETTING_DOCS } = await import("./env");
    const file = readFileSync(new URL("../.env.example", import.meta.url), "utf8");
    expect(file).toBe(envExample());
    for (const name of Object.keys(SETTING_DOCS).filter((n) => n !== "NODE_ENV")) expect(file).toContain(`# ${name}=`);
  });

  it("names every setting in the README", async () => {
    const { readFileSync } = await import("node:fs");
    const { SETTING_DOCS } = await import("./env");
    const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
    const missing = Object.keys(SETTING_DOCS).filter((n) => n !== "NODE_ENV" && !readme.includes(`\`${n}\``));
    expect(missing).toEqual([]);
  });
});
