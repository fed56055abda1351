import { z } from "zod";

/**
 * Every setting of the app, validated once. "Sandbox mode" means one thing: PIS_BASE_URL is unset,
 * so the provider is the built-in sandbox (`sandbox` below). SANDBOX_MODE=true does not choose it;
 * it only lets it start on an APP_URL that is not on this machine (a public sandbox). In sandbox
 * mode the defaults are the sandbox's documented test values, so `npm start` works with no configuration at all; against a
 * real provider the secrets and the merchant's own account must be given explicitly.
 */

// The sandbox's documented test project (README "Sandbox test credentials"). Repeated here rather
// than imported: merchant code knows the sandbox only as a remote provider, like any merchant would.
export const SANDBOX_DEFAULTS = {
  PIS_CLIENT_ID: "sandbox-client-id",
  PIS_CLIENT_SECRET: "sandbox-client-secret",
  PIS_WEBHOOK_SECRET: "sandbox-webhook-secret",
  MERCHANT_API_KEY: "dev-merchant-key",
  MERCHANT_NOTIFY_SECRET: "dev-notify-secret",
  // id:base64 of 32 bytes. Development only: anyone can read it here.
  TOKEN_ENCRYPTION_KEYS: "dev1:ZGV2LW9ubHktdG9rZW4ta2V5LWRvLW5vdC11c2UhISE=",
  CREDITOR_NAME: "Demo Shop UAB",
  CREDITOR_IBAN: "LT601010012345678901",
} as const;

const port = z.coerce.number().int().min(1).max(65535);
const httpUrl = z.url({ protocol: /^https?$/ }).transform((u) => u.replace(/\/+$/, ""));
const optionalString = z.preprocess((v) => (v === "" ? undefined : v), z.string().min(1).optional());
const optionalUrl = z.preprocess((v) => (v === "" ? undefined : v), httpUrl.optional());

/**
 * An origin a page may frame the embedded bank picker from: https, or http on this machine (a
 * browser treats localhost as secure too). Written as the browser reports it, so the CSP matches.
 */
export const embedOrigin = z
  .url({ protocol: /^https?$/, error: "must be an origin such as https://shop.example" })
  .transform((u) => new URL(u))
  .refine((u) => /^([a-z0-9-]+\.)*[a-z0-9-]+$|^\[[0-9a-f:.]+\]$/.test(u.hostname), {
    error: "must name one host, no wildcard",
  })
  .refine((u) => (u.pathname === "/" || u.pathname === "") && !u.search && !u.hash && !u.username, {
    error: "must be an origin only (scheme, host and port), no path",
  })
  .refine((u) => u.protocol === "https:" || ["localhost", "127.0.0.1", "[::1]"].includes(u.hostname), {
    error: "must be https (http only for localhost)",
  })
  .transform((u) => u.origin);
const originList = z.preprocess(
  (v) =>
    typeof v === "string" && v.trim() !== ""
      ? v
          .split(",")
          .map((o) => o.trim())
          .filter(Boolean)
      : undefined,
  z.array(embedOrigin).max(20).optional(),
);

/** ISO 13616: the IBAN with its first four characters moved to the end, letters as 10-35, is 1 mod 97. */
export function ibanChecksumValid(iban: string): boolean {
  let rest = 0;
  for (const c of iban.slice(4) + iban.slice(0, 4)) {
    const digits = /[A-Z]/.test(c) ? String(c.charCodeAt(0) - 55) : c;
    for (const d of digits) rest = (rest * 10 + Number(d)) % 97;
  }
  return rest === 1;
}

const rawSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: port.default(3000),
  APP_URL: optionalUrl,
  DATABASE_URL: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must start with postgres:// or postgresql://")
      .optional(),
  ),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(20),
  PGLITE_DIR: optionalString,
  PIS_BASE_URL: z.preprocess(
    (v) => (v === "" ? undefined : v),
    httpUrl
      .refine((u) => !/\/v\d+(\.\d+)*$/i.test(u), {
        error:
          "must be the provider's base without the API version, e.g. https://api.kevin.eu/platform (the version is PIS_API_VERSION)",
      })
      .optional(),
  ),
  SANDBOX_MODE: z.enum(["true", "false"]).default("false"),
  SANDBOX_PORT: port.default(3001),
  SANDBOX_CONTROL_SECRET: optionalString,
  EMBED_ORIGINS: originList,
  EMBED_DEMO_PORT: port.default(3002),
  PIS_API_VERSION: z.enum(["v0.1", "v0.2", "v0.3"]).default("v0.3"),
  PIS_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
  PIS_CLIENT_ID: optionalString,
  PIS_CLIENT_SECRET: optionalString,
  PIS_WEBHOOK_SECRET: optionalString,
  MERCHANT_API_KEY: optionalString,
  // No longer read (staff have their own accounts, ADR 27); set, it only changes a start-up line.
  BACKOFFICE_PASSWORD: optionalString,
  MERCHANT_NOTIFY_SECRET: optionalString,
  TOKEN_ENCRYPTION_KEYS: optionalString,
  METRICS_TOKEN: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.string().min(16, "must be at least 16 characters (e.g. openssl rand -hex 24)").optional(),
  ),
  CHECKOUT_TTL_MINUTES: z.coerce
    .number()
    .int()
    .min(5)
    .max(7 * 24 * 60 - 60)
    .default(24 * 60),
  WORKER_INTERVAL_MS: z.coerce.number().int().min(200).max(600_000).default(15_000),
  RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).default(90),
  RATE_LIMIT_PAYMENTS_PER_CHECKOUT: z.coerce.number().int().min(1).default(10),
  RATE_LIMIT_PAYMENTS_PER_IP: z.coerce.number().int().min(1).default(120),
  RATE_LIMIT_LOGIN_FAILURES_PER_IP: z.coerce.number().int().min(1).default(10),
  RATE_LIMIT_LOGIN_FAILURES_PER_ACCOUNT: z.coerce.number().int().min(1).default(10),
  REFUND_APPROVAL_ABOVE: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z
      .string()
      .regex(/^\d{1,9}(\.\d{1,2})?$/, "must be an amount such as 1000 or 250.00")
      .optional(),
  ),
  STAFF_2FA_REQUIRED_ROLES: z
    .string()
    .default("finance,admin")
    .transform((v) =>
      v
        .split(",")
        .map((r) => r.trim())
        .filter(Boolean),
    )
    .pipe(
      z.array(
        z.enum(["viewer", "support", "finance", "admin"], {
          error: "must list roles: viewer, support, finance, admin",
        }),
      ),
    ),
  RATE_LIMIT_FORGED_WEBHOOKS_PER_IP: z.coerce.number().int().min(1).default(30),
  RATE_LIMIT_ABANDONS_PER_IP: z.coerce.number().int().min(1).default(60),
  RATE_LIMIT_RETURN_READS_PER_IP: z.coerce.number().int().min(1).default(20),
  RATE_LIMIT_LINK_CHECKOUTS_PER_IP: z.coerce.number().int().min(1).default(10),
  TRUSTED_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
  // Read by lib/log/logger.ts itself (it logs before the settings are loaded); validated here.
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  // Read by the OpenTelemetry SDK itself when tracing starts (lib/tracing/start.ts); validated here.
  OTEL_EXPORTER_OTLP_ENDPOINT: optionalUrl,
  OTEL_EXPORTER_OTLP_PROTOCOL: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z
      .enum(["http/protobuf", "http/json"], { error: "must be http/protobuf or http/json (grpc is not taken)" })
      .optional(),
  ),
  OTEL_SERVICE_NAME: optionalString,
  ALLOW_PRIVATE_URLS: z.enum(["true", "false"]).optional(),
  ALLOW_INSECURE_SETTINGS: z.enum(["true", "false"]).default("false"),
  CREDITOR_NAME: optionalString,
  CREDITOR_IBAN: z.preprocess(
    (v) => (typeof v === "string" && v !== "" ? v.replace(/\s+/g, "").toUpperCase() : undefined),
    z
      .string()
      .regex(/^[A-Z]{2}\d{2}[A-Z0-9]{10,30}$/, "must be an IBAN")
      .refine(ibanChecksumValid, "its check digits do not match (ISO 13616 mod 97): a typing error?")
      .optional(),
  ),
});

type SettingName = keyof z.input<typeof rawSchema>;

/**
 * What each setting means and its default, for .env.example (generated by `npm run env:example`
 * and checked by lib/env.test.ts) and the README. Typed over the schema's keys: a setting cannot
 * be added without saying what it is.
 */
// BACKOFFICE_PASSWORD is read only to tell an upgraded deployment it is no longer used: not offered.
export const SETTING_DOCS: Record<
  Exclude<SettingName, "BACKOFFICE_PASSWORD">,
  { meaning: string; default: string; secret?: true }
> = {
  NODE_ENV: { meaning: "set by npm start and next", default: "development" },
  PORT: { meaning: "port of the app", default: "3000" },
  APP_URL: {
    meaning:
      "public origin payers and the provider reach the app at; builds Redirect-URL and Webhook-URL; must be https with a real provider",
    default: "http://localhost:$PORT",
  },
  DATABASE_URL: {
    meaning: "postgres:// URL of a Postgres server",
    default: "unset: embedded PGlite under PGLITE_DIR (one instance only)",
  },
  DATABASE_POOL_SIZE: {
    meaning:
      "connections each instance keeps to its database; on Postgres, instances × this must stay under the server's max_connections",
    default: "20",
  },
  PGLITE_DIR: { meaning: "where the embedded database lives; one process at a time", default: ".data/pglite" },
  PIS_BASE_URL: {
    meaning:
      "provider base URL without version, e.g. https://api.kevin.eu/platform; https (every call carries the Client-Secret); setting it turns on the deployment checks",
    default:
      "unset: sandbox mode, the built-in sandbox on SANDBOX_PORT (only with an APP_URL on this machine, or SANDBOX_MODE=true)",
  },
  SANDBOX_MODE: {
    meaning:
      "true: a public sandbox: sandbox mode (no PIS_BASE_URL: development keys, test payments, the demo shop) may start with an APP_URL that is not on this machine, for a public demo; never a shop. Without it, no PIS_BASE_URL and an APP_URL other than localhost stops start-up. It does not choose sandbox mode (PIS_BASE_URL does), and is refused beside PIS_BASE_URL",
    default: "false",
  },
  SANDBOX_PORT: { meaning: "port of the built-in sandbox provider", default: "3001" },
  SANDBOX_CONTROL_SECRET: {
    meaning:
      "what the sandbox's control API (/_sandbox/...) wants in X-Sandbox-Secret; the app's test helper (POST /api/test-helpers/...) sends it. Sandbox mode only",
    default: "sandbox-control-secret",
    secret: true,
  },
  EMBED_ORIGINS: {
    meaning:
      "comma-separated origins of the merchant's own pages that may embed the bank picker (embed.js); https, or http on localhost",
    default: "none with a real provider; the demo merchant site (http://localhost:$EMBED_DEMO_PORT) in sandbox mode",
  },
  EMBED_DEMO_PORT: {
    meaning: "port of the demo merchant site that embeds the bank picker (sandbox mode only)",
    default: "3002",
  },
  PIS_API_VERSION: {
    meaning:
      "provider API version: v0.3, v0.2 or v0.1 (before v0.3 bank payments only: no cards, refunds or saved accounts)",
    default: "v0.3",
  },
  PIS_TIMEOUT_MS: { meaning: "timeout of each provider call, in milliseconds", default: "15000" },
  PIS_CLIENT_ID: {
    meaning: "the provider project's Client-Id",
    default: "the sandbox test project; required with a real provider",
  },
  PIS_CLIENT_SECRET: {
    meaning: "the provider project's Client-Secret",
    default: "the sandbox test project; required with a real provider",
    secret: true,
  },
  PIS_WEBHOOK_SECRET: {
    meaning: "endpoint secret that signs the provider's webhooks",
    default: "the sandbox test secret; required with a real provider",
    secret: true,
  },
  MERCHANT_API_KEY: {
    meaning: "Bearer key of the checkouts API (at least 24 characters with a real provider)",
    default: "dev-merchant-key in sandbox mode; required otherwise",
    secret: true,
  },
  MERCHANT_NOTIFY_SECRET: {
    meaning: "signs our notifications to the merchant's notifyUrl (at least 24 characters with a real provider)",
    default: "dev-notify-secret in sandbox mode; required otherwise",
    secret: true,
  },
  TOKEN_ENCRYPTION_KEYS: {
    meaning: "AES-256 keys sealing saved accounts' tokens: id:base64 of 32 bytes, comma-separated, newest first",
    default: "a development key in sandbox mode; required otherwise",
    secret: true,
  },
  METRICS_TOKEN: {
    meaning:
      "bearer token a Prometheus scraper sends to read GET /api/metrics (Authorization: Bearer ...); without it only this machine may read them",
    default: "unset: only this machine",
    secret: true,
  },
  CHECKOUT_TTL_MINUTES: { meaning: "default lifetime of a checkout (at most 7 days less an hour)", default: "1440" },
  WORKER_INTERVAL_MS: { meaning: "how often expiry, reconciliation and token re-sealing run", default: "15000" },
  RETENTION_DAYS: {
    meaning:
      "days the bodies of delivered notifications and of provider webhooks, and used or expired staff invitation links, are kept before the worker prunes them (ended rate-limit windows, sessions and passkey challenges go as they end); checkouts, payments, refunds, their status history and the audit trail are kept for good",
    default: "90",
  },
  RATE_LIMIT_PAYMENTS_PER_CHECKOUT: { meaning: "payment starts per minute per checkout", default: "10" },
  RATE_LIMIT_PAYMENTS_PER_IP: { meaning: "payment starts per minute per client address", default: "120" },
  RATE_LIMIT_LOGIN_FAILURES_PER_IP: {
    meaning:
      "failed back-office sign-ins per 15 minutes per address (and, counted apart, set-password posts with a link that does not work)",
    default: "10",
  },
  REFUND_APPROVAL_ABOVE: {
    meaning:
      "a staff refund that takes a checkout's refunds (made, or waiting for approval) above this amount waits for a second finance or admin person to approve it (four eyes)",
    default: "unset: no approval needed",
  },
  STAFF_2FA_REQUIRED_ROLES: {
    meaning: "staff roles that must sign in with a second step (an authenticator app), comma-separated; empty for none",
    default: "finance,admin",
  },
  RATE_LIMIT_LOGIN_FAILURES_PER_ACCOUNT: {
    meaning: "failed back-office sign-ins per 15 minutes per staff email (then that account waits)",
    default: "10",
  },
  RATE_LIMIT_FORGED_WEBHOOKS_PER_IP: {
    meaning: "webhooks not signed with our secret per minute per address",
    default: "30",
  },
  RATE_LIMIT_ABANDONS_PER_IP: { meaning: "abandoned-payment calls per minute per address", default: "60" },
  RATE_LIMIT_RETURN_READS_PER_IP: {
    meaning: "landing loads per minute per address that ask the provider about the payment the payer came back from",
    default: "20",
  },
  RATE_LIMIT_LINK_CHECKOUTS_PER_IP: {
    meaning: "checkouts per minute per client address that payers make from payment links",
    default: "10",
  },
  TRUSTED_PROXY_HOPS: {
    meaning: "how many reverse proxies in front of the app append to X-Forwarded-For (0: the socket's address)",
    default: "0",
  },
  LOG_LEVEL: {
    meaning:
      "least severe log level written (JSON lines on stdout; pretty in development): fatal, error, warn, info, debug, trace or silent",
    default: "info",
  },
  OTEL_EXPORTER_OTLP_ENDPOINT: {
    meaning:
      "base URL of an OpenTelemetry collector taking OTLP over HTTP (e.g. http://otel-collector:4318); set, the app sends traces there (/v1/traces), and every log line carries its trace_id and span_id. The other standard OTEL_* variables are honoured (README, Deploy, Traces)",
    default: "unset: no tracing, and none of the SDK loaded",
  },
  OTEL_EXPORTER_OTLP_PROTOCOL: { meaning: "http/protobuf or http/json", default: "http/protobuf" },
  OTEL_SERVICE_NAME: { meaning: "service.name of the traces", default: "bank-checkout" },
  ALLOW_PRIVATE_URLS: {
    meaning:
      "true: returnUrl and notifyUrl may point at localhost or a private network (said at start-up with a real provider)",
    default: "true in sandbox mode, false otherwise",
  },
  ALLOW_INSECURE_SETTINGS: {
    meaning:
      "true: skip the deployment checks, and let PIS_BASE_URL be http on this machine (a test rig against a local sandbox; never a deployment)",
    default: "false",
  },
  CREDITOR_NAME: {
    meaning: "the merchant's name on the receiving account",
    default: "Demo Shop UAB in sandbox mode; required otherwise",
  },
  CREDITOR_IBAN: {
    meaning: "the merchant's receiving account (an IBAN; its check digits are verified)",
    default: "LT601010012345678901 in sandbox mode; required otherwise",
  },
};

/**
 * Read by compose.yaml, not by the app: the same .env feeds both (README "Deploy"), so .env.example
 * lists them too, apart.
 */
export const COMPOSE_SETTING_DOCS: Record<string, { meaning: string; default: string; secret?: true }> = {
  SITE_ADDRESS: {
    meaning:
      "compose.yaml only: the host name the proxy serves and gets a certificate for (the host of APP_URL, pointing at this machine)",
    default: "none; required by compose.yaml",
  },
  POSTGRES_PASSWORD: {
    meaning: "compose.yaml only: password of its Postgres, also put into the app's DATABASE_URL",
    default: "none; required by compose.yaml",
    secret: true,
  },
  GRAFANA_ADMIN_PASSWORD: {
    meaning:
      "compose.yaml's observability profile only: Grafana's admin password (its port is published on this machine only; viewers need none)",
    default: "admin; set it before the port is reachable by anyone else",
    secret: true,
  },
};

/** .env.example: every setting, its meaning and default, all commented out (the defaults apply). */
export function envExample(): string {
  const lines = [
    "# Every setting of the app (lib/env.ts), generated by `npm run env:example`: do not edit by hand.",
    "# All are optional in sandbox mode (no PIS_BASE_URL: the built-in sandbox is the provider), which",
    "# starts only with an APP_URL on this machine or SANDBOX_MODE=true (a public sandbox). With PIS_BASE_URL",
    "# set, the secrets and the creditor are required and start-up refuses development values, a non-https",
    '# APP_URL and weak passwords (README "Settings").',
    "",
  ];
  const entry = (name: string, doc: { meaning: string; default: string; secret?: true }) =>
    lines.push(`# ${doc.meaning}.`, `# Default: ${doc.default}.`, `# ${name}=${doc.secret ? "<secret>" : ""}`, "");
  for (const [name, doc] of Object.entries(SETTING_DOCS)) if (name !== "NODE_ENV") entry(name, doc);
  lines.push("# ---- compose.yaml only: docker compose reads this file too; the app does not. ----", "");
  for (const [name, doc] of Object.entries(COMPOSE_SETTING_DOCS)) entry(name, doc);
  return lines.join("\n");
}

export const REQUIRED_WITH_REAL_PROVIDER = [
  "PIS_CLIENT_ID",
  "PIS_CLIENT_SECRET",
  "PIS_WEBHOOK_SECRET",
  "MERCHANT_API_KEY",
  "MERCHANT_NOTIFY_SECRET",
  "TOKEN_ENCRYPTION_KEYS",
  "CREDITOR_NAME",
  "CREDITOR_IBAN",
] as const;

export type Env = ReturnType<typeof loadEnv>;

/** This machine's own names: localhost, *.localhost, 127.0.0.0/8 and [::1]. */
export function isLoopbackHost(hostname: string): boolean {
  return (
    hostname === "localhost" ||
    hostname.endsWith(".localhost") ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname) ||
    hostname === "[::1]"
  );
}

/**
 * Sandbox mode is chosen by leaving PIS_BASE_URL out, which a deployment can do by mistake: its
 * development keys, private notifyUrls and demo shop would then face the internet, and the
 * deployment checks would not run. So it starts only where no one else reaches it, unless asked for.
 */
function sandboxProblems(raw: z.infer<typeof rawSchema>): string[] {
  const publicSandbox = raw.SANDBOX_MODE === "true";
  if (raw.APP_URL === undefined || publicSandbox) return [];
  if (isLoopbackHost(new URL(raw.APP_URL).hostname)) return [];
  return [
    `APP_URL: ${raw.APP_URL} is not on this machine, but PIS_BASE_URL is unset, which runs the built-in sandbox ` +
      "(development keys anyone can read, test payments, the demo shop): set PIS_BASE_URL to your provider " +
      "(e.g. https://api.kevin.eu/platform), or SANDBOX_MODE=true for a public demo",
  ];
}

// Values printed in this file or in the README, which anyone can read: our own development secrets,
// and both of the sandbox's test projects (which would only work against the sandbox anyway).
const DEVELOPMENT_VALUES: Partial<Record<SettingName, readonly string[]>> = {
  PIS_CLIENT_ID: ["sandbox-client-id", "sandbox-nocard-id"],
  PIS_CLIENT_SECRET: [SANDBOX_DEFAULTS.PIS_CLIENT_SECRET, "sandbox-nocard-secret"],
  PIS_WEBHOOK_SECRET: [SANDBOX_DEFAULTS.PIS_WEBHOOK_SECRET, "sandbox-nocard-webhook-secret"],
  MERCHANT_API_KEY: [SANDBOX_DEFAULTS.MERCHANT_API_KEY],
  MERCHANT_NOTIFY_SECRET: [SANDBOX_DEFAULTS.MERCHANT_NOTIFY_SECRET],
};

/** Whether TOKEN_ENCRYPTION_KEYS holds the development key, under whatever id. */
function holdsDevelopmentKey(value: string | undefined): boolean {
  if (value === undefined) return false;
  const [dev] = parseTokenKeys(SANDBOX_DEFAULTS.TOKEN_ENCRYPTION_KEYS);
  try {
    return parseTokenKeys(value).some((k) => k.key.equals(dev!.key));
  } catch {
    return false; // malformed: said by loadEnv
  }
}

const MIN_API_KEY_LENGTH = 24;

/**
 * What would make a deployment with a real provider unsafe on the internet, one line per setting.
 * A test rig that runs the real-provider mode against a sandbox on this machine says
 * ALLOW_INSECURE_SETTINGS=true instead (scripts/chaos), and is told so at start-up.
 */
function deploymentProblems(raw: z.infer<typeof rawSchema>): string[] {
  const problems: string[] = [];
  if (raw.APP_URL === undefined)
    problems.push(
      "APP_URL: required with a real provider: the https address payers and the provider reach this app at",
    );
  else if (!raw.APP_URL.startsWith("https://"))
    problems.push(
      "APP_URL: must be https with a real provider (payers' bank details and the session cookie travel over it)",
    );
  for (const [key, values] of Object.entries(DEVELOPMENT_VALUES)) {
    if (values.includes(raw[key as SettingName] as string))
      problems.push(`${key}: is a built-in development value, which anyone can read in the source; set your own`);
  }
  if (holdsDevelopmentKey(raw.TOKEN_ENCRYPTION_KEYS))
    problems.push(
      "TOKEN_ENCRYPTION_KEYS: holds the built-in development key (whatever its id), which anyone can read in the source; make your own: k1:$(openssl rand -base64 32)",
    );
  // The sandbox's demo creditor: payers would pay an account that is not the merchant's.
  if (raw.CREDITOR_IBAN === SANDBOX_DEFAULTS.CREDITOR_IBAN)
    problems.push("CREDITOR_IBAN: is the sandbox's demo account, not the merchant's; set the account payments go to");
  if (raw.CREDITOR_NAME?.trim().toLowerCase() === SANDBOX_DEFAULTS.CREDITOR_NAME.toLowerCase())
    problems.push("CREDITOR_NAME: is the sandbox's demo creditor; set the merchant's name on its account");
  // Both are keys to money: one creates checkouts and refunds, the other makes notifications the
  // merchant's backend believes (checkout.paid). Equally long.
  for (const key of ["MERCHANT_API_KEY", "MERCHANT_NOTIFY_SECRET"] as const) {
    const value = raw[key] ?? "";
    if (value !== SANDBOX_DEFAULTS[key] && value.length < MIN_API_KEY_LENGTH)
      problems.push(`${key}: must be at least ${MIN_API_KEY_LENGTH} characters (e.g. openssl rand -hex 24)`);
  }
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
      throw new EnvError([
        `TOKEN_ENCRYPTION_KEYS: each entry must be id:base64 of 32 bytes (id of 1-16 letters, digits, _ or -)`,
      ]);
    }
    return { id, key };
  });
  if (new Set(keys.map((k) => k.id)).size !== keys.length)
    throw new EnvError(["TOKEN_ENCRYPTION_KEYS: key ids must be unique"]);
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
  const problems = parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
  // Every problem in one round: the checks below run on the valid settings, and say nothing more
  // about a setting already named.
  const named = new Set(parsed.success ? [] : parsed.error.issues.map((i) => String(i.path[0])));
  const raw = parsed.success
    ? parsed.data
    : rawSchema.parse(Object.fromEntries(Object.entries(source).filter(([k]) => !named.has(k))));
  const sandbox = raw.PIS_BASE_URL === undefined && !named.has("PIS_BASE_URL");
  const more: string[] = [];
  if (sandbox) more.push(...sandboxProblems(raw));
  else {
    if (raw.SANDBOX_MODE === "true")
      more.push("SANDBOX_MODE: true runs the built-in sandbox, but PIS_BASE_URL names a provider; unset one");
    const missing = REQUIRED_WITH_REAL_PROVIDER.filter((k) => raw[k] === undefined && !named.has(k));
    problems.push(...missing.map((k) => `${k}: required when PIS_BASE_URL points at a real provider`));
    missing.forEach((k) => named.add(k));
    // Every call carries the Client-Secret: plain http only to a test rig's sandbox on this machine.
    const provider = raw.PIS_BASE_URL === undefined ? undefined : new URL(raw.PIS_BASE_URL);
    if (
      provider &&
      provider.protocol !== "https:" &&
      !(raw.ALLOW_INSECURE_SETTINGS === "true" && isLoopbackHost(provider.hostname))
    )
      more.push(
        "PIS_BASE_URL: must be https, as every call sends the Client-Secret (http only to a sandbox on this machine, with ALLOW_INSECURE_SETTINGS=true)",
      );
    if (raw.ALLOW_INSECURE_SETTINGS !== "true") more.push(...deploymentProblems(raw));
  }
  const pick = (k: (typeof REQUIRED_WITH_REAL_PROVIDER)[number]) => raw[k] ?? SANDBOX_DEFAULTS[k];
  let tokenKeys: ReturnType<typeof parseTokenKeys> = [];
  try {
    tokenKeys = parseTokenKeys(pick("TOKEN_ENCRYPTION_KEYS"));
  } catch (err) {
    if (!(err instanceof EnvError)) throw err;
    more.push(...err.problems);
  }
  problems.push(...more.filter((p) => !named.has(p.slice(0, p.indexOf(":")))));
  if (problems.length > 0) throw new EnvError(problems);
  const warnings =
    !sandbox && raw.ALLOW_PRIVATE_URLS === "true"
      ? [
          "ALLOW_PRIVATE_URLS=true: checkouts may send payers and notifications to localhost and private networks, and the notifier connects there; only for a merchant backend on the same private network",
        ]
      : [];
  const pisBaseUrl = raw.PIS_BASE_URL ?? `http://localhost:${raw.SANDBOX_PORT}/platform`;
  return {
    nodeEnv: raw.NODE_ENV,
    port: raw.PORT,
    appUrl: raw.APP_URL ?? `http://localhost:${raw.PORT}`,
    databaseUrl: raw.DATABASE_URL,
    databasePoolSize: raw.DATABASE_POOL_SIZE,
    pgliteDir: raw.PGLITE_DIR ?? ".data/pglite",
    sandbox,
    sandboxPort: raw.SANDBOX_PORT,
    /** The sandbox's control secret, for the test helper; sandbox mode only. */
    sandboxControlSecret: raw.SANDBOX_CONTROL_SECRET ?? "sandbox-control-secret",
    pisBaseUrl,
    /** Where the provider's confirm links may lead: its API's origin, and the real one's hosted pages. */
    confirmOrigins: [new URL(pisBaseUrl).origin, ...(sandbox ? [] : PROVIDER_HOSTED_ORIGINS)],
    embedDemoPort: raw.EMBED_DEMO_PORT,
    /** Who may frame /checkout/{id}/embed (CSP frame-ancestors); no one when empty. */
    embedOrigins: raw.EMBED_ORIGINS ?? (sandbox ? [`http://localhost:${raw.EMBED_DEMO_PORT}`] : []),
    pisApiVersion: raw.PIS_API_VERSION,
    pisTimeoutMs: raw.PIS_TIMEOUT_MS,
    pisClientId: pick("PIS_CLIENT_ID"),
    pisClientSecret: pick("PIS_CLIENT_SECRET"),
    pisWebhookSecret: pick("PIS_WEBHOOK_SECRET"),
    merchantApiKey: pick("MERCHANT_API_KEY"),
    staff2faRequiredRoles: raw.STAFF_2FA_REQUIRED_ROLES,
    /** Staff refunds above this wait for a second person (lib/refund-approvals); undefined: never. */
    refundApprovalAbove: raw.REFUND_APPROVAL_ABOVE,
    /** Set by a deployment from before staff accounts: said at start-up when no staff exist yet. */
    legacyBackofficePassword: raw.BACKOFFICE_PASSWORD !== undefined,
    merchantNotifySecret: pick("MERCHANT_NOTIFY_SECRET"),
    tokenKeys,
    checkoutTtlMs: raw.CHECKOUT_TTL_MINUTES * 60 * 1000,
    workerIntervalMs: raw.WORKER_INTERVAL_MS,
    /** What is not the books is pruned this many days after it ended (lib/retention). */
    retentionDays: raw.RETENTION_DAYS,
    trustedProxyHops: raw.TRUSTED_PROXY_HOPS,
    rateLimits: {
      paymentsPerCheckoutPerMinute: raw.RATE_LIMIT_PAYMENTS_PER_CHECKOUT,
      paymentsPerIpPerMinute: raw.RATE_LIMIT_PAYMENTS_PER_IP,
      loginFailuresPerIpPer15Minutes: raw.RATE_LIMIT_LOGIN_FAILURES_PER_IP,
      loginFailuresPerAccountPer15Minutes: raw.RATE_LIMIT_LOGIN_FAILURES_PER_ACCOUNT,
      forgedWebhooksPerIpPerMinute: raw.RATE_LIMIT_FORGED_WEBHOOKS_PER_IP,
      abandonsPerIpPerMinute: raw.RATE_LIMIT_ABANDONS_PER_IP,
      returnReadsPerIpPerMinute: raw.RATE_LIMIT_RETURN_READS_PER_IP,
      linkCheckoutsPerIpPerMinute: raw.RATE_LIMIT_LINK_CHECKOUTS_PER_IP,
    },
    /** Lets a scraper read GET /api/metrics from elsewhere than this machine (lib/metrics). */
    metricsToken: raw.METRICS_TOKEN,
    /** A test rig runs the real-provider mode with development settings (said at start-up). */
    insecureSettings: !sandbox && raw.ALLOW_INSECURE_SETTINGS === "true",
    /** Merchant URLs (returnUrl, notifyUrl) may point at localhost and private networks. */
    allowPrivateUrls: raw.ALLOW_PRIVATE_URLS === undefined ? sandbox : raw.ALLOW_PRIVATE_URLS === "true",
    creditorName: pick("CREDITOR_NAME"),
    creditorIban: pick("CREDITOR_IBAN"),
    /** Allowed, but worth an operator's second look: printed once at start-up (env()). */
    warnings,
  };
}

const CONNECT_FAILURES: Record<string, string> = {
  ECONNREFUSED: "nothing accepts connections there",
  ENOTFOUND: "no such host",
  EAI_AGAIN: "the host name could not be resolved",
  ETIMEDOUT: "no answer",
  EHOSTUNREACH: "the host cannot be reached",
};

/**
 * One line for a database that did not open, naming the setting and what failed; never
 * DATABASE_URL's password.
 */
/**
 * Only where the database is (`npm run backup` and `restore`): a restore onto a new machine must
 * not wait for the provider's secrets to be set.
 */
export function databaseSettings(source: Record<string, string | undefined> = process.env) {
  const parsed = rawSchema.pick({ DATABASE_URL: true, PGLITE_DIR: true }).safeParse(source);
  if (!parsed.success) throw new EnvError(parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`));
  return { databaseUrl: parsed.data.DATABASE_URL, pgliteDir: parsed.data.PGLITE_DIR ?? ".data/pglite" };
}

export function databaseFailure(settings: Pick<Env, "databaseUrl" | "pgliteDir">, err: unknown): string {
  const e = (err ?? {}) as { message?: string; code?: string; errors?: { message?: string }[] };
  let cause = (e.message || e.errors?.[0]?.message || String(err)).split("\n")[0]!;
  if (!settings.databaseUrl) return `PGLITE_DIR (${settings.pgliteDir}): the embedded database did not open: ${cause}`;
  let where = "";
  try {
    const url = new URL(settings.databaseUrl);
    if (url.password) {
      cause = cause.split(decodeURIComponent(url.password)).join("****");
      url.password = "****";
    }
    where = ` (${url.href})`;
  } catch {
    // Not a URL we can mask: named only.
  }
  const hint = e.code ? CONNECT_FAILURES[e.code] : undefined;
  return `DATABASE_URL${where}: could not open the database: ${cause}${hint ? ` (${hint})` : ""}`;
}

// Hosted-page hosts of the real provider (provider-api.md section 1); its API host differs.
const PROVIDER_HOSTED_ORIGINS = ["https://psd2.kevin.eu", "https://psd2-sandbox.kevin.eu"];

let cached: Env | undefined;

/** The settings of this process, validated on first use. */
export function env(): Env {
  if (typeof window !== "undefined") throw new Error("lib/env is server-only");
  if (!cached) {
    cached = loadEnv();
    // Once per process, though the server's bundles (instrumentation, proxy) each hold this module.
    const g = globalThis as { __envWarned?: boolean };
    if (!g.__envWarned) for (const warning of cached.warnings) console.warn(warning);
    g.__envWarned = true;
  }
  return cached;
}
