/**
 * What a new staff password must be: long enough, and not one of the first a guesser tries. Plain
 * data and functions, so the set-password form shows the same rule the server applies.
 */

export const MIN_PASSWORD_LENGTH = 12;
const MAX_PASSWORD_LENGTH = 256;
// Lowercased, with digits and punctuation at the ends stripped before comparing ("Password123!").
const KNOWN_PASSWORDS = new Set([
  "password",
  "passw0rd",
  "changeme",
  "change-me",
  "admin",
  "administrator",
  "backoffice",
  "back-office",
  "devbackoffice",
  "dev-backoffice",
  "letmein",
  "qwerty",
  "qwertyuiop",
  "welcome",
  "secret",
  "default",
  "staff",
  "checkout",
  "iloveyou",
  "abc",
  "test",
]);

function wellKnownPassword(password: string): boolean {
  const core = password.toLowerCase().replace(/^[\d\W_]+|[\d\W_]+$/g, "");
  return KNOWN_PASSWORDS.has(core) || /^(.)\1*$/.test(password) || /^\d+$/.test(password);
}

export type PasswordRule = "too_short" | "too_long" | "too_easy";

/** Which rule a new password breaks, or undefined when it will do. */
export function passwordRuleBroken(password: string): PasswordRule | undefined {
  if (password.length < MIN_PASSWORD_LENGTH) return "too_short";
  if (password.length > MAX_PASSWORD_LENGTH) return "too_long";
  if (wellKnownPassword(password)) return "too_easy";
  return undefined;
}

export { MAX_PASSWORD_LENGTH };

/** Why a new password is refused, in English (the CLI, the errors' messages), or undefined. */
export function passwordProblem(password: string): string | undefined {
  const broken = passwordRuleBroken(password);
  if (broken === "too_short") return `Use at least ${MIN_PASSWORD_LENGTH} characters.`;
  if (broken === "too_long") return `Use at most ${MAX_PASSWORD_LENGTH} characters.`;
  if (broken === "too_easy") return "This password is too easy to guess. Choose one nobody would guess.";
  return undefined;
}
