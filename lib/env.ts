import { z } from "zod";

/**
 * Every setting of the app, validated once. In sandbox mode (no PIS_BASE_URL) the defaults are the
 * sandbox's documented test values, so `npm start` works with no configuration at all; against a
 * real provider the secrets and the merchant's own account must be given explicitly.
 */

// The sandbox's documented test project (README "Sandbox test credentials"). Repeated here rather
// than imported: merchant code knows the sandbox only as a remote provider, like any merchant would.
export const SANDBOX_DEFAULTS = {
  PIS_CLIENT_ID: "sandbox-client-id",
  PIS_CLIENT_SECRET: "sandbox-client-secret",
  PIS_WEBHOOK_SECRET: "sandbox-webhook-secret",
  MERCHANT_API_KEY: "dev-merchant-key",
  BACKOFFICE_PASSWORD: "dev-backoffice",
  MERCHANT_NOTIFY_SECRET: "dev-notify-secret",
  // id:base64 of 32 bytes. Development only: anyone can read it here.
  TOKEN_ENCRYPTION_KEYS: "dev1:ZGV2LW9ubHktdG9rZW4ta2V5LWRvLW5vdC11c2UhISE=",
  CREDITOR_NAME: "Demo Shop UAB",
  CREDITOR_IBAN: "LT601010012345678901",
} as const;

const port = z.coerce.number().int().min(1).max(65535);
const httpUrl = z
  .url({ protocol: /^https?$/ })
  .transform((u) => u.replace(/\/+$/, ""));
const optionalString = z.preprocess((v) => (v === "" ? undefined : v), z.string().min(1).optional());
const optionalUrl = z.preprocess((v) => (v === "" ? undefined : v), httpUrl.optional());

const rawSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: port.default(3000),
  APP_URL: optionalUrl,
  DATABASE_URL: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.string().regex(/^postgres(ql)?:\/\//, "must start with postgres:// or postgresql://").optional(),
  ),
  PGLITE_DIR: optionalString,
  PIS_BASE_URL: optionalUrl,
  SANDBOX_PORT: port.default(3001),
  PIS_API_VERSION: z.enum(["v0.1", "v0.2", "v0.3"]).default("v0.3"),
  PIS_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
  PIS_CLIENT_ID: optionalString,
  PIS_CLIENT_SECRET: optionalString,
  PIS_WEBHOOK_SECRET: optionalString,
  MERCHANT_API_KEY: optionalString,
  BACKOFFICE_PASSWORD: optionalString,
  MERCHANT_NOTIFY_SECRET: optionalString,
  TOKEN_ENCRYPTION_KEYS: optionalString,
  CHECKOUT_TTL_MINUTES: z.coerce.number().int().min(5).max(7 * 24 * 60 - 60).default(24 * 60),
  WORKER_INTERVAL_MS: z.coerce.number().int().min(200).max(600_000).default(15_000),
  RATE_LIMIT_PAYMENTS_PER_CHECKOUT: z.coerce.number().int().min(1).default(10),
  RATE_LIMIT_PAYMENTS_PER_IP: z.coerce.number().int().min(1).default(120),
  RATE_LIMIT_LOGIN_FAILURES_PER_IP: z.coerce.number().int().min(1).default(10),
  RATE_LIMIT_FORGED_WEBHOOKS_PER_IP: z.coerce.number().int().min(1).default(30),
  RATE_LIMIT_ABANDONS_PER_IP: z.coerce.number().int().min(1).default(60),
  TRUSTED_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
  ALLOW_PRIVATE_URLS: z.enum(["true", "false"]).optional(),
  ALLOW_INSECURE_SETTINGS: z.enum(["true", "false"]).default("false"),
  CREDITOR_NAME: optionalString,
  CREDITOR_IBAN: z.preprocess(
    (v) => (typeof v === "string" && v !== "" ? v.replace(/\s+/g, "").toUpperCase() : undefined),
    z.string().regex(/^[A-Z]{2}\d{2}[A-Z0-9]{10,30}$/, "must be an IBAN").optional(),
  ),
});

const REQUIRED_WITH_REAL_PROVIDER = [
  "PIS_CLIENT_ID",
  "PIS_CLIENT_SECRET",
  "PIS_WEBHOOK_SECRET",
  "MERCHANT_API_KEY",
  "BACKOFFICE_PASSWORD",
  "MERCHANT_NOTIFY_SECRET",
  "TOKEN_ENCRYPTION_KEYS",
  "CREDITOR_NAME",
  "CREDITOR_IBAN",
] as const;

export type Env = ReturnType<typeof loadEnv>;

// Our own secrets that must never be the development values printed in this file; the provider's
// client secret too, which would only work against the sandbox anyway.
const SECRETS = ["PIS_CLIENT_SECRET", "PIS_WEBHOOK_SECRET", "MERCHANT_API_KEY", "BACKOFFICE_PASSWORD", "MERCHANT_NOTIFY_SECRET", "TOKEN_ENCRYPTION_KEYS"] as const;
const MIN_PASSWORD_LENGTH = 12;
const MIN_API_KEY_LENGTH = 24;
// Lowercased, with digits and punctuation at the ends stripped before comparing ("Password123!").
const KNOWN_PASSWORDS = new Set(["password", "passw0rd", "changeme", "change-me", "admin", "administrator", "backoffice", "back-office", "devbackoffice", "dev-backoffice", "letmein", "qwerty", "qwertyuiop", "welcome", "secret", "default", "staff", "checkout", "iloveyou", "abc", "test"]);

function wellKnownPassword(password: string): boolean {
  const core = password.toLowerCase().replace(/^[\d\W_]+|[\d\W_]+$/g, "");
  return KNOWN_PASSWORDS.has(core) || /^(.)\1*$/.test(password) || /^\d+$/.test(password);
}

/**
 * What would make a deployment with a real provider unsafe on the internet, one line per setting.
 * A test rig that runs the real-provider mode against a sandbox on this machine says
 * ALLOW_INSECURE_SETTINGS=true instead (scripts/chaos), and is told so at start-up.
 */
function deploymentProblems(raw: z.infer<typeof rawSchema>): string[] {
  const problems: string[] = [];
  if (raw.APP_URL === undefined) problems.push("APP_URL: required with a real provider: the https address payers and the provider reach this app at");
  else if (!raw.APP_URL.startsWith("https://")) problems.push("APP_URL: must be https with a real provider (payers' bank details and the session cookie travel over it)");
  for (const key of SECRETS) {
    if (raw[key] === SANDBOX_DEFAULTS[key]) problems.push(`${key}: is the built-in development value, which anyone can read in the source; set your own`);
  }
  const password = raw.BACKOFFICE_PASSWORD ?? "";
  if (password !== SANDBOX_DEFAULTS.BACKOFFICE_PASSWORD) {
    if (password.length < MIN_PASSWORD_LENGTH) problems.push(`BACKOFFICE_PASSWORD: must be at least ${MIN_PASSWORD_LENGTH} characters`);
    else if (wellKnownPassword(password)) problems.push("BACKOFFICE_PASSWORD: is a well known password; choose one nobody would guess");
  }
  const apiKey = raw.MERCHANT_API_KEY ?? "";
  if (apiKey !== SANDBOX_DEFAULTS.MERCHANT_API_KEY && apiKey.length < MIN_API_KEY_LENGTH) problems.push(`MERCHANT_API_KEY: must be at least ${MIN_API_KEY_LENGTH} characters (e.g. openssl rand -hex 24)`);
  return problems;
}

/**
 * TOKEN_ENCRYPTION_KEYS: comma-separated `id:base64` AES-256 keys, newest first. New tokens are
 * sealed with the first; older ones still open tokens sealed before a rotation.
 */
export function parseTokenKeys(value: string): { id: string; key: Buffer }[] {
  const keys = value.split(",").map((part) => {
    const [id, b64] = part.trim().split(":");
    const key = Buffer.from(b64 ?? "", "base64");
    if (!id || !/^[A-Za-z0-9_-]{1,16}$/.test(id) || key.length !== 32) {
      throw new EnvError([`TOKEN_ENCRYPTION_KEYS: each entry must be id:base64 of 32 bytes (id of 1-16 letters, digits, _ or -)`]);
    }
    return { id, key };
  });
  if (new Set(keys.map((k) => k.id)).size !== keys.length) throw new EnvError(["TOKEN_ENCRYPTION_KEYS: key ids must be unique"]);
  return keys;
}

export class EnvError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid settings:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "EnvError";
  }
}

export function loadEnv(source: Record<string, string | undefined> = process.env) {
  const parsed = rawSchema.safeParse(source);
  if (!parsed.success) {
    throw new EnvError(parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`));
  }
  const raw = parsed.data;
  const sandbox = raw.PIS_BASE_URL === undefined;
  if (!sandbox) {
    const missing = REQUIRED_WITH_REAL_PROVIDER.filter((k) => raw[k] === undefined);
    if (missing.length > 0) {
      throw new EnvError(missing.map((k) => `${k}: required when PIS_BASE_URL points at a real provider`));
    }
    const problems = raw.ALLOW_INSECURE_SETTINGS === "true" ? [] : deploymentProblems(raw);
    if (problems.length > 0) throw new EnvError(problems);
  }
  const pick = (k: (typeof REQUIRED_WITH_REAL_PROVIDER)[number]) => raw[k] ?? SANDBOX_DEFAULTS[k];
  return {
    nodeEnv: raw.NODE_ENV,
    port: raw.PORT,
    appUrl: raw.APP_URL ?? `http://localhost:${raw.PORT}`,
    databaseUrl: raw.DATABASE_URL,
    pgliteDir: raw.PGLITE_DIR ?? ".data/pglite",
    sandbox,
    sandboxPort: raw.SANDBOX_PORT,
    pisBaseUrl: raw.PIS_BASE_URL ?? `http://localhost:${raw.SANDBOX_PORT}/platform`,
    pisApiVersion: raw.PIS_API_VERSION,
    pisTimeoutMs: raw.PIS_TIMEOUT_MS,
    pisClientId: pick("PIS_CLIENT_ID"),
    pisClientSecret: pick("PIS_CLIENT_SECRET"),
    pisWebhookSecret: pick("PIS_WEBHOOK_SECRET"),
    merchantApiKey: pick("MERCHANT_API_KEY"),
    backofficePassword: pick("BACKOFFICE_PASSWORD"),
    merchantNotifySecret: pick("MERCHANT_NOTIFY_SECRET"),
    tokenKeys: parseTokenKeys(pick("TOKEN_ENCRYPTION_KEYS")),
    checkoutTtlMs: raw.CHECKOUT_TTL_MINUTES * 60 * 1000,
    workerIntervalMs: raw.WORKER_INTERVAL_MS,
    trustedProxyHops: raw.TRUSTED_PROXY_HOPS,
    rateLimits: {
      paymentsPerCheckoutPerMinute: raw.RATE_LIMIT_PAYMENTS_PER_CHECKOUT,
      paymentsPerIpPerMinute: raw.RATE_LIMIT_PAYMENTS_PER_IP,
      loginFailuresPerIpPer15Minutes: raw.RATE_LIMIT_LOGIN_FAILURES_PER_IP,
      forgedWebhooksPerIpPerMinute: raw.RATE_LIMIT_FORGED_WEBHOOKS_PER_IP,
      abandonsPerIpPerMinute: raw.RATE_LIMIT_ABANDONS_PER_IP,
    },
    /** A test rig runs the real-provider mode with development settings (said at start-up). */
    insecureSettings: !sandbox && raw.ALLOW_INSECURE_SETTINGS === "true",
    /** Merchant URLs (returnUrl, notifyUrl) may point at localhost and private networks. */
    allowPrivateUrls: raw.ALLOW_PRIVATE_URLS === undefined ? sandbox : raw.ALLOW_PRIVATE_URLS === "true",
    creditorName: pick("CREDITOR_NAME"),
    creditorIban: pick("CREDITOR_IBAN"),
  };
}

let cached: Env | undefined;

/** The settings of this process, validated on first use. */
export function env(): Env {
  if (typeof window !== "undefined") throw new Error("lib/env is server-only");
  cached ??= loadEnv();
  return cached;
}
