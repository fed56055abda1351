/** What an API key may do, and the overlaps a roll offers: plain data, for the server and the forms. */

export const API_SCOPES = [
  "checkouts:read",
  "checkouts:write",
  "refunds:write",
  "payment_links:read",
  "payment_links:write",
] as const;
export type ApiScope = (typeof API_SCOPES)[number];

export const SCOPE_LABELS: Record<ApiScope, string> = {
  "checkouts:read": "read checkouts and refunds",
  "checkouts:write": "create and cancel checkouts",
  "refunds:write": "make refunds",
  "payment_links:read": "read payment links",
  "payment_links:write": "make and deactivate payment links",
};

const HOUR = 3600_000;
export const MAX_OVERLAP_MS = 7 * 24 * HOUR;

/** How long a rolled key keeps working: the choices the back office offers. */
export const ROLL_OVERLAPS: Record<string, { ms: number; label: string }> = {
  "0": { ms: 0, label: "stops now" },
  "1h": { ms: HOUR, label: "1 hour" },
  "24h": { ms: 24 * HOUR, label: "24 hours" },
  "7d": { ms: MAX_OVERLAP_MS, label: "7 days" },
};
