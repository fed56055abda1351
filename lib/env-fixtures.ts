/**
 * A complete configuration for a real provider (tests only): every setting that mode requires,
 * each fit for a deployment on the internet (https, no built-in development value).
 */
export const REAL_PROVIDER_ENV = {
  APP_URL: "https://pay.shop.example",
  PIS_BASE_URL: "https://api.kevin.eu/platform",
  PIS_CLIENT_ID: "id",
  PIS_CLIENT_SECRET: "secret",
  PIS_WEBHOOK_SECRET: "whsec-0f6a1c2e9b7d4a55",
  MERCHANT_API_KEY: "mk_live_8c1f0e4b2a7d9e3f6a5b",
  MERCHANT_NOTIFY_SECRET: "notify-3e9d7c1b5a2f8e6d4c0b",
  TOKEN_ENCRYPTION_KEYS: `k1:${Buffer.alloc(32, 7).toString("base64")}`,
  CREDITOR_NAME: "Shop",
  CREDITOR_IBAN: "LT121000011101001000",
} as const;
