/** A complete configuration for a real provider (tests only): every setting that mode requires. */
export const REAL_PROVIDER_ENV = {
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
} as const;
