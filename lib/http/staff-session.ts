import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * The back-office session: a signed, expiring token in an httpOnly, SameSite=Strict cookie. The
 * signing key is derived from the staff password, so changing the password ends every session.
 */
export const SESSION_COOKIE = "bo_session";
export const SESSION_TTL_MS = 8 * 3600_000;

const keyOf = (password: string) => createHash("sha256").update(`backoffice-session:${password}`).digest();
const sign = (key: Buffer, payload: string) => createHmac("sha256", key).update(payload).digest("base64url");

export function passwordMatches(given: string, expected: string): boolean {
  // Hash both so the comparison is constant-time whatever the lengths.
  const a = createHash("sha256").update(given).digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b);
}

export function issueSession(password: string, now = Date.now()): string {
  const payload = Buffer.from(JSON.stringify({ exp: now + SESSION_TTL_MS, n: randomBytes(8).toString("hex") })).toString("base64url");
  return `${payload}.${sign(keyOf(password), payload)}`;
}

export function sessionIsValid(token: string | undefined, password: string, now = Date.now()): boolean {
  if (!token) return false;
  const [payload, signature] = token.split(".");
  if (!payload || !signature) return false;
  const expected = Buffer.from(sign(keyOf(password), payload));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false;
  try {
    const { exp } = JSON.parse(Buffer.from(payload, "base64url").toString()) as { exp?: unknown };
    return typeof exp === "number" && exp > now;
  } catch {
    return false;
  }
}

/** The session token in a request's Cookie header, for route handlers that read the raw request. */
export function sessionTokenOf(cookieHeader: string | null): string | undefined {
  for (const part of (cookieHeader ?? "").split(";")) {
    const [name, ...value] = part.trim().split("=");
    if (name === SESSION_COOKIE) return value.join("=");
  }
  return undefined;
}

export function sessionCookieOptions(appUrl: string) {
  return { httpOnly: true, sameSite: "strict" as const, secure: appUrl.startsWith("https:"), path: "/", maxAge: SESSION_TTL_MS / 1000 };
}
