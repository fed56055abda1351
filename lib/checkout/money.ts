/**
 * Money at the edges is a decimal string; arithmetic is done in integer minor units (bigint), never
 * in floating point.
 */

// ISO 4217 minor units of the currencies we take. The provider's bank payments are EUR and PLN;
// the others are here so a card project can use them.
const MINOR_UNITS: Record<string, number> = {
  EUR: 2,
  PLN: 2,
  GBP: 2,
  USD: 2,
  SEK: 2,
  NOK: 2,
  DKK: 2,
  CZK: 2,
  HUF: 2,
  RON: 2,
  BGN: 2,
  CHF: 2,
};

export const SUPPORTED_CURRENCIES = Object.keys(MINOR_UNITS);

/** Bank refunds are paid out only in these currencies (provider-api.md 4.5). */
export const REFUND_CURRENCIES = ["EUR", "PLN"];

export function minorUnits(currency: string): number {
  const units = MINOR_UNITS[currency];
  if (units === undefined) throw new Error(`unsupported currency ${currency}`);
  return units;
}

/** An amount as the API writes it: digits, and a fraction after a point if any ("12.50", "100"). */
export const DECIMAL_AMOUNT = /^\d+(\.\d+)?$/;

/** Why `amount` is not a valid amount of `currency`, or null when it is. */
export function amountProblem(amount: string, currency: string): string | null {
  const units = MINOR_UNITS[currency];
  if (units === undefined) return `currency ${currency} is not supported`;
  if (!DECIMAL_AMOUNT.test(amount)) return 'must be a decimal string like "12.50"';
  const fraction = amount.split(".")[1] ?? "";
  if (fraction.length > units) return `${currency} allows at most ${units} decimal places`;
  if (toMinor(amount, currency) <= 0n) return "must be greater than zero";
  if (toMinor(amount, currency) > 99_999_999_999n) return "is too large";
  return null;
}

export function toMinor(amount: string, currency: string): bigint {
  const units = minorUnits(currency);
  const [whole = "0", fraction = ""] = amount.split(".");
  return BigInt(whole) * 10n ** BigInt(units) + BigInt((fraction + "0".repeat(units)).slice(0, units) || "0");
}

/** The canonical decimal string: exactly the currency's minor units ("12.5" -> "12.50"). */
export function fromMinor(minor: bigint, currency: string): string {
  const units = minorUnits(currency);
  const negative = minor < 0n;
  const digits = (negative ? -minor : minor).toString().padStart(units + 1, "0");
  const whole = digits.slice(0, digits.length - units);
  const fraction = digits.slice(digits.length - units);
  return `${negative ? "-" : ""}${whole}${units > 0 ? `.${fraction}` : ""}`;
}

export function normaliseAmount(amount: string, currency: string): string {
  return fromMinor(toMinor(amount, currency), currency);
}
