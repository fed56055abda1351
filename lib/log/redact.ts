/**
 * What our logs may never carry: bank account numbers, names and other personal data, tokens and
 * secrets. Database errors are the usual leak (a failed query's message lists its parameters, which
 * hold IBANs and payer names), so errors are rewritten before anything logs them.
 */

// An IBAN as written in text: two letters, two digits, then 10 to 30 letters or digits, maybe spaced.
const IBAN = /\b[A-Z]{2}\d{2}(?:[ ]?[A-Z0-9]){10,30}\b/g;
const EMAIL = /\b([A-Za-z0-9._%+-])[A-Za-z0-9._%+-]*@([A-Za-z0-9.-]+\.[A-Za-z]{2,})\b/g;
// A card number: 13 to 19 digits, maybe grouped by spaces or dashes.
const CARD = /\b\d(?:[ -]?\d){12,18}\b/g;
// Bearer tokens, and long opaque values after a secret-sounding name.
const BEARER = /\b(Bearer)\s+[A-Za-z0-9._~+/=-]{8,}/gi;
const NAMED_SECRET =
  /\b((?:client[_-]?secret|secret|password|token|access[_-]?token|refresh[_-]?token|authorization)["']?\s*[:=]\s*["']?)[^"'\s,}]{4,}/gi;

/** The text with account numbers masked to their country and last four characters, and secrets removed. */
export function redactText(text: string): string {
  return text
    .replace(IBAN, (iban) => {
      const compact = iban.replace(/ /g, "");
      return `${compact.slice(0, 2)}**…${compact.slice(-4)}`;
    })
    .replace(EMAIL, "$1***@$2")
    .replace(CARD, (digits) => `[card …${digits.replace(/\D/g, "").slice(-4)}]`)
    .replace(BEARER, "$1 [redacted]")
    .replace(NAMED_SECRET, "$1[redacted]");
}

interface QueryError extends Error {
  query: string;
  params: unknown[];
}

const isQueryError = (err: Error): err is QueryError =>
  "query" in err && "params" in err && Array.isArray((err as QueryError).params);

/**
 * An error as it may be logged: a failed query keeps its SQL (no values in it: they are bound
 * parameters) and its cause's code and message, never the parameters; every message and stack is
 * passed through redactText.
 */
export function redactError(err: unknown): Error {
  if (!(err instanceof Error)) return new Error(redactText(String(err)));
  const cause = err.cause instanceof Error ? redactError(err.cause) : undefined;
  const message = isQueryError(err)
    ? `Failed query: ${err.query} (${err.params.length} parameters, not logged)`
    : redactText(err.message);
  const safe = new Error(message, cause ? { cause } : undefined);
  safe.name = err.name;
  const code = (err as { code?: unknown }).code;
  if (typeof code === "string") Object.assign(safe, { code });
  // A stack starts with the message (over several lines for a failed query); only the code
  // locations after it are kept.
  const frames = (err.stack ?? "").split("\n").filter((line) => /^\s+at /.test(line));
  safe.stack = [`${err.name}: ${message}`, ...frames.map(redactText)].join("\n");
  return safe;
}

/** Arguments of a console call made safe: errors rewritten, strings masked, anything else as it is. */
export function redactArgs(args: unknown[]): unknown[] {
  return args.map((a) => (a instanceof Error ? redactError(a) : typeof a === "string" ? redactText(a) : a));
}
