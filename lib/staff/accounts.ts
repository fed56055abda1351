import { createHash, randomBytes, randomUUID } from "node:crypto";
import { and, asc, eq, isNull, ne, sql } from "drizzle-orm";
import type { AuditAction } from "../audit/actions";
import { recordAudit, type AuditActor } from "../audit/audit";
import type { Db, Tx } from "../db";
import { staff, staffInvitations } from "../db/schema";
import { passwordProblem } from "./password-rules";
import { hashPassword, passwordVerifies, spendVerifyTime } from "./passwords";
import { isStaffRole, type StaffRole } from "./roles";
import { endSessionsOf } from "./sessions";

/**
 * Named staff accounts (ADR 27): invitations with a one-time link to set a password, sign-in,
 * disabling and roles. Every change writes its audit row in the same transaction, so the trail
 * holds exactly what happened.
 */

export const INVITATION_TTL_MS = 24 * 3600_000;

/** The sandbox's seeded admin (README "Back office"): signs in only in sandbox mode. */
export const DEMO_ADMIN = { email: "admin@shop.example", password: "dev-backoffice" } as const;

export interface StaffMember {
  id: string;
  email: string;
  role: StaffRole;
  hasPassword: boolean;
  demo: boolean;
  /** Two-step sign-in is on: an authenticator app or a passkey. */
  twoStep: boolean;
  disabledAt: Date | null;
  createdAt: Date;
}

/** Who is acting and from where: what each change's audit row says. */
export interface StaffCall {
  db: Db;
  actor: AuditActor;
  clientAddress?: string;
  now?: Date;
}

export class StaffError extends Error {
  constructor(
    readonly code:
      | "email_taken"
      | "invalid_email"
      | "invalid_role"
      | "not_found"
      | "last_admin"
      | "weak_password"
      | "link_unknown"
      | "link_used"
      | "link_expired"
      | "wrong_code"
      | "passkey_refused"
      | "sign_in_not_recent",
    message: string,
  ) {
    super(message);
  }
}

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}\.[^\s@]{2,}$/;
export const normalizeEmail = (email: string) => email.trim().toLowerCase();
const linkHash = (token: string) => createHash("sha256").update(`staff-link:${token}`).digest("hex");
const LINK_TOKEN = /^[A-Za-z0-9_-]{43}$/;

const memberColumns = {
  id: staff.id,
  email: staff.email,
  role: staff.role,
  hasPassword: sql<boolean>`${staff.passwordHash} is not null`,
  demo: staff.demo,
  // An authenticator app, or a passkey (which is two steps in itself).
  // Qualified by hand: drizzle writes a one-table select's columns bare, and a bare "id" in the
  // subquery would be the passkey's.
  twoStep: sql<boolean>`(${staff.totpEnabledAt} is not null or exists (select 1 from staff_passkeys p where p.staff_id = "staff"."id"))`,
  disabledAt: staff.disabledAt,
  createdAt: staff.createdAt,
};

export function listStaff(db: Db): Promise<StaffMember[]> {
  return db.select(memberColumns).from(staff).orderBy(asc(staff.email));
}

export async function staffMember(db: Db | Tx, id: string): Promise<StaffMember | undefined> {
  const [row] = await db.select(memberColumns).from(staff).where(eq(staff.id, id));
  return row;
}

/** Whether anyone but the sandbox's demo admin has an account: the deployment has its own staff. */
export async function hasOwnStaff(db: Db): Promise<boolean> {
  const [row] = await db.select({ id: staff.id }).from(staff).where(eq(staff.demo, false)).limit(1);
  return !!row;
}

/**
 * Adds a person with a role and answers the one-time link token to set their password: shown once
 * to whoever invited them (there is no mail server), valid 24 hours.
 */
export async function inviteStaff(
  call: StaffCall,
  input: { email: string; role: string },
): Promise<{ member: StaffMember; token: string }> {
  const email = normalizeEmail(input.email);
  if (!EMAIL.test(email)) throw new StaffError("invalid_email", "Enter an email address such as name@shop.example.");
  if (!isStaffRole(input.role)) throw new StaffError("invalid_role", "Choose a role.");
  const role = input.role;
  const now = call.now ?? new Date();
  return call.db.transaction(async (tx) => {
    const [created] = await tx
      .insert(staff)
      .values({ id: `st_${randomUUID()}`, email, role, createdAt: now, updatedAt: now })
      .onConflictDoNothing()
      .returning({ id: staff.id });
    if (!created) throw new StaffError("email_taken", `${email} already has an account.`);
    const token = await issueLink(tx, created.id, call, now);
    await audit(tx, call, "staff.invited", created.id, { email, role });
    return { member: (await staffMember(tx, created.id))!, token };
  });
}

/**
 * A new one-time link for a person (an admin's password reset): the person's earlier links stop
 * working, and so does their password and every session once they set a new one.
 */
export async function resetPasswordLink(call: StaffCall, staffId: string): Promise<string> {
  const now = call.now ?? new Date();
  return call.db.transaction(async (tx) => {
    const member = await staffMember(tx, staffId);
    if (!member) throw new StaffError("not_found", "No such person.");
    const token = await issueLink(tx, staffId, call, now);
    await audit(tx, call, "staff.password_reset", staffId, { email: member.email });
    return token;
  });
}

async function issueLink(tx: Tx, staffId: string, call: StaffCall, now: Date): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  // One live link per person: an earlier one, perhaps sent to the wrong place, dies.
  await tx
    .update(staffInvitations)
    .set({ usedAt: now })
    .where(and(eq(staffInvitations.staffId, staffId), isNull(staffInvitations.usedAt)));
  await tx.insert(staffInvitations).values({
    tokenHash: linkHash(token),
    staffId,
    createdBy: "id" in call.actor ? call.actor.id : null,
    createdAt: now,
    expiresAt: new Date(now.getTime() + INVITATION_TTL_MS),
  });
  return token;
}

/** The person a set-password link is for, or why it cannot be used. */
export async function linkHolder(
  db: Db,
  token: string,
  now = new Date(),
): Promise<{ ok: true; email: string } | { ok: false; error: StaffError }> {
  const found = await findLink(db, token, now);
  return "error" in found ? { ok: false, error: found.error } : { ok: true, email: found.email };
}

async function findLink(db: Db | Tx, token: string, now: Date, lock = false) {
  const unknown = { error: new StaffError("link_unknown", "This link is not valid. Ask an admin for a new one.") };
  if (!LINK_TOKEN.test(token)) return unknown;
  const query = db
    .select({
      staffId: staffInvitations.staffId,
      email: staff.email,
      usedAt: staffInvitations.usedAt,
      expiresAt: staffInvitations.expiresAt,
      disabledAt: staff.disabledAt,
    })
    .from(staffInvitations)
    .innerJoin(staff, eq(staff.id, staffInvitations.staffId))
    .where(eq(staffInvitations.tokenHash, linkHash(token)));
  const [row] = lock ? await query.for("update", { of: staffInvitations }) : await query;
  if (!row || row.disabledAt) return unknown;
  if (row.usedAt)
    return { error: new StaffError("link_used", "This link has been used already. Ask an admin for a new one.") };
  if (row.expiresAt <= now)
    return {
      error: new StaffError("link_expired", "This link has expired (after 24 hours). Ask an admin for a new one."),
    };
  return { staffId: row.staffId, email: row.email };
}

/** Sets a person's password from their one-time link; ends their other sessions. */
export async function setPasswordFromLink(
  db: Db,
  input: { token: string; password: string; clientAddress?: string },
  now = new Date(),
): Promise<StaffMember> {
  // The link first: a hash costs 40 ms and 19 MiB, so a post with a link that cannot set a password
  // (anyone can post one) must not get one. The hash is made outside the transaction, so the link
  // is read again under its lock below.
  const usable = await findLink(db, input.token, now);
  if ("error" in usable) throw usable.error;
  const problem = passwordProblem(input.password);
  if (problem) throw new StaffError("weak_password", problem);
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    const found = await findLink(tx, input.token, now, true);
    if ("error" in found) throw found.error;
    await tx
      .update(staffInvitations)
      .set({ usedAt: now })
      .where(eq(staffInvitations.tokenHash, linkHash(input.token)));
    await tx.update(staff).set({ passwordHash, updatedAt: now }).where(eq(staff.id, found.staffId));
    await endSessionsOf(tx, found.staffId);
    await recordAudit(tx, {
      actor: { kind: "staff", id: found.staffId, label: found.email },
      action: "staff.password_set",
      target: { kind: "staff", id: found.staffId },
      outcome: "succeeded",
      clientAddress: input.clientAddress,
      at: now,
    });
    return (await staffMember(tx, found.staffId))!;
  });
}

export type SignInRefusal = "unknown_email" | "wrong_password" | "disabled" | "no_password" | "demo_account";

/**
 * Checks an email and password. Every refusal costs one argon2 verification, so the time of the
 * answer does not tell an unknown address from a wrong password; the caller says the same words
 * for both. Writes no audit row: the caller knows the client's address and the rate limits.
 */
export async function checkPassword(
  db: Db,
  input: { email: string; password: string; sandbox: boolean },
): Promise<{ ok: true; member: StaffMember } | { ok: false; reason: SignInRefusal; staffId?: string }> {
  const email = normalizeEmail(input.email);
  const [row] = await db
    .select({ ...memberColumns, passwordHash: staff.passwordHash })
    .from(staff)
    .where(eq(staff.email, email));
  if (!row?.passwordHash) {
    await spendVerifyTime(input.password);
    return row ? { ok: false, reason: "no_password", staffId: row.id } : { ok: false, reason: "unknown_email" };
  }
  const verified = await passwordVerifies(row.passwordHash, input.password);
  const { passwordHash: _, ...member } = row;
  if (!verified) return { ok: false, reason: "wrong_password", staffId: row.id };
  if (row.disabledAt) return { ok: false, reason: "disabled", staffId: row.id };
  if (row.demo && !input.sandbox) return { ok: false, reason: "demo_account", staffId: row.id };
  return { ok: true, member };
}

/** Disables or enables a person. Disabling ends their sessions at once; the last admin stays. */
export async function setDisabled(call: StaffCall, staffId: string, disabled: boolean): Promise<StaffMember> {
  const now = call.now ?? new Date();
  return withAdminsLocked(call.db, async (tx) => {
    const member = await staffMember(tx, staffId);
    if (!member) throw new StaffError("not_found", "No such person.");
    if (disabled && member.role === "admin") await keepAnAdmin(tx, staffId);
    await tx
      .update(staff)
      .set({ disabledAt: disabled ? (member.disabledAt ?? now) : null, updatedAt: now })
      .where(eq(staff.id, staffId));
    if (disabled) await endSessionsOf(tx, staffId);
    await audit(tx, call, disabled ? "staff.disabled" : "staff.enabled", staffId, { email: member.email });
    return (await staffMember(tx, staffId))!;
  });
}

/** Changes a person's role; their sessions end, so the new role holds from their next sign-in. */
export async function changeRole(call: StaffCall, staffId: string, role: string): Promise<StaffMember> {
  if (!isStaffRole(role)) throw new StaffError("invalid_role", "Choose a role.");
  const now = call.now ?? new Date();
  return withAdminsLocked(call.db, async (tx) => {
    const member = await staffMember(tx, staffId);
    if (!member) throw new StaffError("not_found", "No such person.");
    if (member.role === role) return member;
    if (member.role === "admin") await keepAnAdmin(tx, staffId);
    await tx.update(staff).set({ role, updatedAt: now }).where(eq(staff.id, staffId));
    await endSessionsOf(tx, staffId);
    await audit(tx, call, "staff.role_changed", staffId, { email: member.email, from: member.role, to: role });
    return (await staffMember(tx, staffId))!;
  });
}

// Two admins demoting each other at once must not leave none: changes that can remove an admin
// take the enabled admins' rows in one order first, so the second waits and counts again.
async function withAdminsLocked<T>(db: Db, work: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx
      .select({ id: staff.id })
      .from(staff)
      .where(and(eq(staff.role, "admin"), isNull(staff.disabledAt)))
      .orderBy(asc(staff.id))
      .for("update");
    return work(tx);
  });
}

async function keepAnAdmin(tx: Tx, leaving: string): Promise<void> {
  const others = await tx
    .select({ id: staff.id })
    .from(staff)
    .where(and(eq(staff.role, "admin"), isNull(staff.disabledAt), ne(staff.id, leaving), eq(staff.demo, false)))
    .limit(1);
  if (others.length === 0)
    throw new StaffError("last_admin", "This is the last admin: make someone else an admin first.");
}

function audit(tx: Tx, call: StaffCall, action: AuditAction, staffId: string, detail: Record<string, string>) {
  return recordAudit(tx, {
    actor: call.actor,
    action,
    target: { kind: "staff", id: staffId },
    outcome: "succeeded",
    detail,
    clientAddress: call.clientAddress,
    at: call.now,
  });
}

/**
 * Sandbox mode's admin with the README's password, so `npm start` opens the back office at once.
 * Outside sandbox mode it is disabled (a directory from a demo reused for real money).
 */
export async function settleDemoAdmin(db: Db, sandbox: boolean): Promise<void> {
  if (sandbox) {
    await db
      .insert(staff)
      .values({
        id: `st_${randomUUID()}`,
        email: DEMO_ADMIN.email,
        role: "admin",
        passwordHash: await hashPassword(DEMO_ADMIN.password),
        demo: true,
      })
      .onConflictDoNothing();
    return;
  }
  const disabled = await db
    .update(staff)
    .set({ disabledAt: new Date() })
    .where(and(eq(staff.demo, true), isNull(staff.disabledAt)))
    .returning({ id: staff.id });
  for (const { id } of disabled)
    await recordAudit(db, {
      actor: { kind: "system", label: "start-up" },
      action: "staff.disabled",
      target: { kind: "staff", id },
      outcome: "succeeded",
      detail: { reason: "demo_account_outside_sandbox" },
    });
}
