import { createHash, randomBytes } from "node:crypto";
import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import { recordAudit } from "../audit/audit";
import { openToken, sealToken, type TokenKey } from "../checkout/token-vault";
import type { Db } from "../db";
import { staff, staffPasskeys, staffRecoveryCodes } from "../db/schema";
import { StaffError, type StaffCall } from "./accounts";
import type { StaffRole } from "./roles";
import { endSessionsOf, signedInRecently, type SignedInStaff } from "./sessions";
import { newTotpSecret, otpauthUri, verifyTotp } from "./totp";

/**
 * Two-step sign-in (ADR 27): a TOTP app enrolled by QR code, with ten one-time recovery codes for
 * a lost phone. Required for the roles in STAFF_2FA_REQUIRED_ROLES; anyone may turn it on. The
 * secret is stored sealed with TOKEN_ENCRYPTION_KEYS, the recovery codes as hashes.
 */

export const ISSUER = "Bank checkout";
const RECOVERY_CODES = 10;

const codeHash = (staffId: string, code: string) =>
  createHash("sha256")
    .update(`staff-recovery:${staffId}:${code.replace(/[\s-]/g, "").toLowerCase()}`)
    .digest("hex");

/** Whether this person must have two-step sign-in (the sandbox's demo admin never must). */
export function secondFactorRequired(
  member: { role: StaffRole; demo: boolean },
  requiredRoles: readonly StaffRole[],
): boolean {
  return !member.demo && requiredRoles.includes(member.role);
}

/** Whether the person's authenticator app is set up (their passkeys are lib/staff/passkeys.ts). */
export async function hasAuthenticatorApp(db: Db, staffId: string): Promise<boolean> {
  const [row] = await db.select({ on: staff.totpEnabledAt }).from(staff).where(eq(staff.id, staffId));
  return !!row?.on;
}

type Signer = Pick<SignedInStaff, "id" | "authenticatedAt">;

/**
 * An authenticator app is a way in that outlives the session, like a passkey: whoever finds a
 * session left open must not set up their own phone with it. Both ask for a recent sign-in.
 */
function checkRecentSignIn(member: Signer, now: Date): void {
  if (!signedInRecently(member, now))
    throw new StaffError("sign_in_not_recent", "Confirm it is you first: give your password again.");
}

/**
 * The secret to enrol with: the one enrolment already started, or a new one. Shown as a QR code
 * and as text; in force only once a code from it is confirmed. Undefined once the app is on.
 */
export async function enrolmentSecret(
  db: Db,
  member: Signer & { email: string },
  keys: readonly TokenKey[],
  now = new Date(),
): Promise<{ secret: string; uri: string } | undefined> {
  const [row] = await db
    .select({ sealed: staff.totpSecret, on: staff.totpEnabledAt })
    .from(staff)
    .where(eq(staff.id, member.id));
  if (!row || row.on) return undefined;
  checkRecentSignIn(member, now);
  let secret = row.sealed ? openToken(row.sealed, keys) : undefined;
  if (!secret) {
    secret = newTotpSecret();
    // Two tabs at once: the first secret written is the one both show.
    const [written] = await db
      .update(staff)
      .set({ totpSecret: sealToken(secret, keys) })
      .where(and(eq(staff.id, member.id), isNull(staff.totpSecret)))
      .returning({ id: staff.id });
    if (!written) return enrolmentSecret(db, member, keys, now);
  }
  return { secret, uri: otpauthUri(secret, member.email, ISSUER) };
}

/** Confirms enrolment with a code from the app; answers the recovery codes, shown once. */
export async function confirmEnrolment(
  call: StaffCall & { keys: readonly TokenKey[] },
  member: Signer,
  code: string,
): Promise<string[]> {
  const now = call.now ?? new Date();
  checkRecentSignIn(member, now);
  const staffId = member.id;
  return call.db.transaction(async (tx) => {
    const [row] = await tx
      .select({ sealed: staff.totpSecret, on: staff.totpEnabledAt, email: staff.email })
      .from(staff)
      .where(eq(staff.id, staffId))
      .for("update");
    if (!row?.sealed || row.on)
      throw new StaffError("not_found", "Two-step sign-in is already on, or was not started.");
    const step = verifyTotp(openToken(row.sealed, call.keys), code, now);
    if (step === undefined)
      throw new StaffError("wrong_code", "That code is not right. Type the 6 digits your app shows now.");
    await tx.update(staff).set({ totpEnabledAt: now, totpLastStep: step, updatedAt: now }).where(eq(staff.id, staffId));
    const codes = Array.from({ length: RECOVERY_CODES }, () => {
      const raw = randomBytes(8).toString("hex");
      return `${raw.slice(0, 4)}-${raw.slice(4, 8)}-${raw.slice(8, 12)}-${raw.slice(12)}`;
    });
    await tx.insert(staffRecoveryCodes).values(codes.map((c) => ({ codeHash: codeHash(staffId, c), staffId })));
    await recordAudit(tx, {
      actor: call.actor,
      action: "staff.second_factor_enrolled",
      target: { kind: "staff", id: staffId },
      outcome: "succeeded",
      detail: { email: row.email },
      clientAddress: call.clientAddress,
      at: now,
    });
    return codes;
  });
}

/**
 * Checks a code at sign-in: a TOTP code (each step once: the update takes it only when it is later
 * than the last used, so two requests with one code cannot both pass) or an unused recovery code.
 */
export async function checkSecondFactor(
  db: Db,
  staffId: string,
  code: string,
  keys: readonly TokenKey[],
  now = new Date(),
): Promise<"totp" | "recovery_code" | undefined> {
  const [row] = await db
    .select({ sealed: staff.totpSecret, on: staff.totpEnabledAt, last: staff.totpLastStep })
    .from(staff)
    .where(eq(staff.id, staffId));
  if (!row?.sealed || !row.on) return undefined;
  const step = verifyTotp(openToken(row.sealed, keys), code, now, row.last ?? -1);
  if (step !== undefined) {
    const [taken] = await db
      .update(staff)
      .set({ totpLastStep: step })
      .where(and(eq(staff.id, staffId), or(isNull(staff.totpLastStep), lt(staff.totpLastStep, step))))
      .returning({ id: staff.id });
    return taken ? "totp" : undefined;
  }
  if (!/^[0-9a-f]{4}(-?[0-9a-f]{4}){3}$/i.test(code.trim())) return undefined;
  const [used] = await db
    .update(staffRecoveryCodes)
    .set({ usedAt: now })
    .where(
      and(
        eq(staffRecoveryCodes.codeHash, codeHash(staffId, code.trim())),
        eq(staffRecoveryCodes.staffId, staffId),
        isNull(staffRecoveryCodes.usedAt),
      ),
    )
    .returning({ codeHash: staffRecoveryCodes.codeHash });
  return used ? "recovery_code" : undefined;
}

/** How many unused recovery codes a person has left. */
export async function recoveryCodesLeft(db: Db, staffId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(staffRecoveryCodes)
    .where(and(eq(staffRecoveryCodes.staffId, staffId), isNull(staffRecoveryCodes.usedAt)));
  return row?.n ?? 0;
}

/**
 * An admin turns off a person's two-step sign-in (a lost phone): the app, the recovery codes and the
 * passkeys go; they enrol again at next sign-in.
 */
export async function resetSecondFactor(call: StaffCall, staffId: string): Promise<void> {
  const now = call.now ?? new Date();
  await call.db.transaction(async (tx) => {
    const [row] = await tx
      .update(staff)
      .set({ totpSecret: null, totpEnabledAt: null, totpLastStep: null, updatedAt: now })
      .where(eq(staff.id, staffId))
      .returning({ email: staff.email });
    if (!row) throw new StaffError("not_found", "No such person.");
    await tx.delete(staffRecoveryCodes).where(eq(staffRecoveryCodes.staffId, staffId));
    await tx.delete(staffPasskeys).where(eq(staffPasskeys.staffId, staffId));
    await endSessionsOf(tx, staffId);
    await recordAudit(tx, {
      actor: call.actor,
      action: "staff.second_factor_reset",
      target: { kind: "staff", id: staffId },
      outcome: "succeeded",
      detail: { email: row.email },
      clientAddress: call.clientAddress,
      at: now,
    });
  });
}
