import { z } from "zod";
import type { ApiError } from "./http";

/**
 * The provider validates with Joi and puts Joi's first message in `data`, naming the field by its
 * full path: `"description" is required`, `"amount" must be a number` (provider-api.md 6). The zod
 * issues are turned into the same sentences.
 */

/** The part of a Joi message after the quoted label, for zod's generic issues. */
function joiPhrase(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case "invalid_type":
      if (issue.input === undefined) return "is required";
      if (issue.expected === "object") return "must be of type object";
      return `must be a ${issue.expected}`;
    case "too_small":
      if (issue.origin !== "string") return undefined;
      return issue.minimum === 1
        ? "is not allowed to be empty"
        : `length must be at least ${String(issue.minimum)} characters long`;
    case "too_big":
      if (issue.origin !== "string") return undefined;
      return `length must be less than or equal to ${String(issue.maximum)} characters long`;
    case "invalid_value":
      return `must be one of [${issue.values.map(String).join(", ")}]`;
    case "unrecognized_keys":
      return undefined;
    default:
      return undefined;
  }
}

function joiMessage(issue: z.core.$ZodIssue): string {
  if (issue.code === "unrecognized_keys") {
    const key = issue.keys[0] ?? "value";
    return `"${[...issue.path, key].join(".")}" is not allowed`;
  }
  const label = issue.path.length === 0 ? "value" : issue.path.join(".");
  return `"${label}" ${issue.message}`;
}

/** Parses a JSON request body with a schema; the first problem becomes `fail(joiMessage)`. */
export function parseBody<T extends z.ZodType>(
  raw: string,
  schema: T,
  fail: (message: string) => ApiError,
  emptyIs?: unknown,
): z.output<T> {
  let json: unknown;
  if (raw === "" && emptyIs !== undefined) json = emptyIs;
  else {
    try {
      json = JSON.parse(raw);
    } catch {
      throw fail(`"value" must be of type object`);
    }
  }
  return parseValue(json, schema, fail);
}

export function parseValue<T extends z.ZodType>(
  value: unknown,
  schema: T,
  fail: (message: string) => ApiError,
): z.output<T> {
  const parsed = schema.safeParse(value, { error: joiPhrase });
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw fail(first ? joiMessage(first) : `"value" is invalid`);
  }
  return parsed.data;
}

export const text = z.string().min(1);

/** A decimal amount: the official clients send a string ("12.30"); a JSON number is accepted as Joi's number() would. */
export const amount = z.unknown().transform((value, ctx) => {
  if (value === undefined) {
    ctx.addIssue({ code: "custom", message: "is required" });
    return z.NEVER;
  }
  const raw = typeof value === "number" ? String(value) : value;
  if (typeof raw !== "string" || !/^-?\d+(\.\d+)?$/.test(raw)) {
    ctx.addIssue({ code: "custom", message: "must be a number" });
    return z.NEVER;
  }
  if (/\.\d{3,}$/.test(raw)) {
    ctx.addIssue({ code: "custom", message: "contains an invalid value" });
    return z.NEVER;
  }
  if (raw.startsWith("-") || !/[1-9]/.test(raw)) {
    ctx.addIssue({ code: "custom", message: "must be greater than 0" });
    return z.NEVER;
  }
  return raw;
});

const currencyPattern = /^[A-Z]{3}$/;
export const currencyCode = z.string().regex(currencyPattern, {
  error: (issue) =>
    `with value "${String(issue.input)}" fails to match the required pattern: ${String(currencyPattern)}`,
});

function isValidIban(iban: string): boolean {
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return false;
  const digits = `${iban.slice(4)}${iban.slice(0, 4)}`.replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  let remainder = 0;
  for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97;
  return remainder === 1;
}

export const iban = text
  .transform((value) => value.replace(/\s+/g, "").toUpperCase())
  .refine(isValidIban, { error: "must be a valid IBAN" });

export const account = z.object({ iban, currencyCode: currencyCode.optional() });

export const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { error: "must be in yyyy-MM-dd format" });

/** Amount in cents; amounts are validated decimals with at most two places. */
export function toCents(value: string): number {
  const [whole = "0", fraction = ""] = value.split(".");
  return Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
}

export function fromCents(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
}
