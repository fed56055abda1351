/**
 * Money arrives as a decimal string ("12.50"). It is formatted without ever becoming a float: the
 * integer part goes through Intl as a bigint, and the fraction digits are spliced in as text.
 */

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

export function formatMoney(amount: string, currency: string, locale = "en"): string {
  const match = DECIMAL.exec(amount.trim());
  if (!match) return `${currency} ${amount}`;
  const [, sign = "", integer = "0", fraction = ""] = match;
  let formatter: Intl.NumberFormat;
  try {
    formatter = new Intl.NumberFormat(locale, { style: "currency", currency });
  } catch {
    return `${currency} ${amount}`;
  }
  const digits = formatter.resolvedOptions().maximumFractionDigits ?? 2;
  // Display only: a currency with fewer digits than the amount keeps the amount's digits.
  const shownFraction = fraction.length >= digits ? fraction : fraction.padEnd(digits, "0");
  const parts = formatter.formatToParts(BigInt(sign + integer));
  let text = "";
  let fractionDone = false;
  for (const part of parts) {
    if (part.type === "fraction") {
      text += shownFraction;
      fractionDone = true;
    } else {
      text += part.value;
    }
  }
  if (!fractionDone && shownFraction !== "" && /[1-9]/.test(shownFraction)) {
    // Zero-digit currencies have no fraction part; keep any non-zero digits visible.
    const decimal = new Intl.NumberFormat(locale).formatToParts(1.5).find((p) => p.type === "decimal")?.value ?? ".";
    text = text.replace(/(\d)(\D*)$/, `$1${decimal}${shownFraction}$2`);
  }
  return text;
}

/** Cents (integer minor units of a 2-digit currency) to a decimal string: 1250 -> "12.50". */
export function centsToDecimal(cents: number): string {
  if (!Number.isSafeInteger(cents) || cents < 0) throw new RangeError("cents must be a non-negative safe integer");
  const whole = Math.floor(cents / 100);
  const rest = cents % 100;
  return `${whole}.${rest.toString().padStart(2, "0")}`;
}
