import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { and, eq, gt, lt } from "drizzle-orm";
import type { Db } from "../db";
import { staffSessions } from "../db/schema";

/**
 * The back-office session: a random token in an httpOnly, SameSite=Strict cookie, and its hash in
 * the database (ADR 16). Sign out deletes the row, so a copied cookie dies with it; Sign out
 * everywhere deletes them all; changing the staff password ends every session opened before.
 */
export const SESSION_COOKIE = "bo_session";
export const SESSION_TTL_MS = 8 * 3600_000;

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const tokenHash = (token: string) => sha256(`staff-session:${token}`);
// Keyed by the password over the session's own token, which the database never holds (only its
// hash): a copy of the database gives nothing to test password guesses against, and the tag still
// stops matching once the staff password changes.
const passwordTag = (password: string, token: string) =>
  createHmac("sha256", password).update(`staff-password:${token}`).digest("hex").slice(0, 32);
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

export function passwordMatches(given: string, expected: string): boolean {
  // Hash both so the comparison is constant-time whatever the lengths.
  const a = createHash("sha256").update(given).digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b);
}

/** Opens a session for staff who gave `password`; answers the token for the cookie. */
export async function openSession(db: Db, password: string, now = new Date()): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  await db.insert(staffSessions).values({
    tokenHash: tokenHash(token),
    passwordTag: passwordTag(password, token),
    createdAt: now,
    expiresAt: new Date(now.getTime() + SESSION_TTL_MS),
  });
  // Sessions that ran out are swept now and then, by whoever signs in.
  await db.delete(staffSessions).where(lt(staffSessions.expiresAt, now));
  return token;
}

export async function sessionIsValid(
  db: Db,
  token: string | undefined,
  password: string,
  now = new Date(),
): Promise<boolean> {
  if (!token || !TOKEN.test(token)) return false;
  const [row] = await db
    .select({ tag: staffSessions.passwordTag })
    .from(staffSessions)
    .where(and(eq(staffSessions.tokenHash, tokenHash(token)), gt(staffSessions.expiresAt, now)));
  return row?.tag === passwordTag(password, token);
}

export async function endSession(db: Db, token: string | undefined): Promise<void> {
  if (token && TOKEN.test(token)) await db.delete(staffSessions).where(eq(staffSessions.tokenHash, tokenHash(token)));
}

export async function endAllSessions(db: Db): Promise<void> {
  await db.delete(staffSessions);
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
  return {
    httpOnly: true,
    sameSite: "strict" as const,
    secure: appUrl.startsWith("https:"),
    path: "/",
    maxAge: SESSION_TTL_MS / 1000,
  };
}
