import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, isNull, lt } from "drizzle-orm";
import type { Db, Tx } from "../db";
import { staff, staffSessions, type SessionStage } from "../db/schema";
import type { StaffRole } from "./roles";

/**
 * The back-office session: a random token in an httpOnly, SameSite=Strict cookie, and its hash in
 * the database (ADR 16), tied to one person (ADR 27). Sign out deletes the row, so a copied cookie
 * dies with it. Each request reads the person with the session, so a disabled person's open tab
 * is signed out at its next request, on every instance.
 */
export const SESSION_COOKIE = "bo_session";
export const SESSION_TTL_MS = 8 * 3600_000;

const tokenHash = (token: string) => createHash("sha256").update(`staff-session:${token}`).digest("hex");
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** Who a request's session belongs to, as the database says now. */
export interface SignedInStaff {
  id: string;
  email: string;
  role: StaffRole;
  /** When they last proved who they are in this session (recent sign-in). */
  authenticatedAt: Date;
  /** "full" opens the back office; the others only the step still owed (a code, an enrolment). */
  stage: SessionStage;
}

export type { SessionStage };

/** Opens a session for a person who just gave their password; answers the token for the cookie. */
export async function openSession(
  db: Db,
  staffId: string,
  opts: { stage?: SessionStage; now?: Date } = {},
): Promise<string> {
  const now = opts.now ?? new Date();
  const token = randomBytes(32).toString("base64url");
  await db.insert(staffSessions).values({
    tokenHash: tokenHash(token),
    staffId,
    createdAt: now,
    authenticatedAt: now,
    stage: opts.stage ?? "full",
    // A step still owed is owed now: a half-open session waits 15 minutes, not a working day.
    expiresAt: new Date(now.getTime() + (opts.stage && opts.stage !== "full" ? 15 * 60_000 : SESSION_TTL_MS)),
  });
  // Sessions that ran out are swept now and then, by whoever signs in.
  await db.delete(staffSessions).where(lt(staffSessions.expiresAt, now));
  return token;
}

/** The person a session token belongs to, or undefined: unknown, expired, or the person disabled. */
export async function sessionOf(
  db: Db,
  token: string | undefined,
  now = new Date(),
): Promise<SignedInStaff | undefined> {
  if (!token || !TOKEN.test(token)) return undefined;
  const [row] = await db
    .select({
      id: staff.id,
      email: staff.email,
      role: staff.role,
      authenticatedAt: staffSessions.authenticatedAt,
      stage: staffSessions.stage,
    })
    .from(staffSessions)
    .innerJoin(staff, eq(staff.id, staffSessions.staffId))
    .where(
      and(eq(staffSessions.tokenHash, tokenHash(token)), gt(staffSessions.expiresAt, now), isNull(staff.disabledAt)),
    );
  return row;
}

/** How recent a sign-in the changes that matter most ask for (recent sign-in, "sudo mode"). */
export const RECENT_SIGN_IN_MS = 5 * 60_000;

export const signedInRecently = (member: Pick<SignedInStaff, "authenticatedAt">, now = new Date()) =>
  now.getTime() - member.authenticatedAt.getTime() <= RECENT_SIGN_IN_MS;

/** The person proved who they are again (password or code): the session counts as recent from now. */
export async function reauthenticate(db: Db, token: string, now = new Date()): Promise<void> {
  await db
    .update(staffSessions)
    .set({ authenticatedAt: now })
    .where(eq(staffSessions.tokenHash, tokenHash(token)));
}

/** The step owed is done: the session opens the back office for a working day from now. */
export async function completeSession(db: Db | Tx, token: string, now = new Date()): Promise<void> {
  await db
    .update(staffSessions)
    .set({ stage: "full", authenticatedAt: now, expiresAt: new Date(now.getTime() + SESSION_TTL_MS) })
    .where(eq(staffSessions.tokenHash, tokenHash(token)));
}

export async function endSession(db: Db, token: string | undefined): Promise<void> {
  if (token && TOKEN.test(token)) await db.delete(staffSessions).where(eq(staffSessions.tokenHash, tokenHash(token)));
}

/** Ends every session of one person, in every browser (a lost laptop; disabled; a new role). */
export async function endSessionsOf(db: Pick<Db, "delete">, staffId: string): Promise<void> {
  await db.delete(staffSessions).where(eq(staffSessions.staffId, staffId));
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
