import { createHash, randomBytes } from "node:crypto";

/** The browser-held half of a payer's identity: an HttpOnly cookie with 256 random bits. */
export const PAYER_HANDLE_COOKIE = "payer_handle";

export const PAYER_HANDLE_MAX_AGE_S = 400 * 24 * 3600;

export function newPayerHandle(): string {
  return randomBytes(32).toString("base64url");
}

export const validHandle = (handle: string | undefined): handle is string =>
  handle !== undefined && /^[A-Za-z0-9_-]{43}$/.test(handle);

/** Only this hash is stored: a database leak does not hand out usable browser handles. */
export function hashHandle(handle: string): string {
  return createHash("sha256").update(`payer-handle:${handle}`).digest("hex");
}
