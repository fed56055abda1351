import { randomBytes } from "node:crypto";
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { and, asc, count, eq, gt, isNull, lt } from "drizzle-orm";
import { z } from "zod";
import { recordAudit } from "../audit/audit";
import type { Db } from "../db";
import { staff, staffPasskeyChallenges, staffPasskeys, type PasskeyPurpose } from "../db/schema";
import { StaffError, type StaffCall } from "./accounts";

/*
 * Passkeys (WebAuthn, ADR 29) through @simplewebauthn/server: a second step after the password, a
 * confirmation for recent sign-in, or sign-in without a password. A passkey proves possession of
 * a device and (user verification required) the person's PIN or face, so alone it counts as both
 * steps. Challenges live in the database, so the instance that answers need not be the one that
 * asked; each is deleted by the answer that uses it.
 */

export type { PasskeyPurpose };

/** Who we are to the browser: the host the back office is served from, and its origin. */
export interface RelyingParty {
  id: string;
  origin: string;
  name: string;
}

export function relyingParty(appUrl: string): RelyingParty {
  const url = new URL(appUrl);
  return { id: url.hostname, origin: url.origin, name: "Bank checkout back office" };
}

const CHALLENGE_TTL_MS = 2 * 60_000;
const MAX_PASSKEYS = 10;

export interface Passkey {
  id: string;
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

/** What a person sees of a passkey: never its key. */
const PASSKEY_COLUMNS = {
  id: staffPasskeys.id,
  name: staffPasskeys.name,
  createdAt: staffPasskeys.createdAt,
  lastUsedAt: staffPasskeys.lastUsedAt,
};

export function listPasskeys(db: Db, staffId: string): Promise<Passkey[]> {
  return db
    .select(PASSKEY_COLUMNS)
    .from(staffPasskeys)
    .where(eq(staffPasskeys.staffId, staffId))
    .orderBy(asc(staffPasskeys.createdAt));
}

/**
 * Stores a challenge for `purpose` (and the person it is for), sweeping the ones that ran out.
 * Answers its bytes: the library sends them base64url, as we store them (a string it would encode).
 */
async function newChallenge(db: Db, purpose: PasskeyPurpose, staffId: string | undefined, now: Date) {
  const bytes = new Uint8Array(randomBytes(32));
  const challenge = Buffer.from(bytes).toString("base64url");
  await db.delete(staffPasskeyChallenges).where(lt(staffPasskeyChallenges.expiresAt, now));
  await db.insert(staffPasskeyChallenges).values({
    challenge,
    purpose,
    staffId: staffId ?? null,
    expiresAt: new Date(now.getTime() + CHALLENGE_TTL_MS),
  });
  return bytes;
}

/**
 * Takes a challenge the browser answered: true only if we gave it, for this purpose and person,
 * less than two minutes ago, and nobody used it yet (deleting it is what makes it used).
 */
function takeChallenge(db: Db, purpose: PasskeyPurpose, staffId: string | undefined, now: Date) {
  return async (challenge: string) => {
    const [taken] = await db
      .delete(staffPasskeyChallenges)
      .where(
        and(
          eq(staffPasskeyChallenges.challenge, challenge),
          eq(staffPasskeyChallenges.purpose, purpose),
          staffId ? eq(staffPasskeyChallenges.staffId, staffId) : isNull(staffPasskeyChallenges.staffId),
          gt(staffPasskeyChallenges.expiresAt, now),
        ),
      )
      .returning({ challenge: staffPasskeyChallenges.challenge });
    return !!taken;
  };
}

const transportsOf = (row: { transports: string }) =>
  row.transports ? (row.transports.split(",") as AuthenticatorTransport[]) : undefined;

/** What the browser needs to make a new passkey for this person. */
export async function registrationOptions(
  db: Db,
  rp: RelyingParty,
  member: { id: string; email: string },
  now = new Date(),
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const existing = await db
    .select({ id: staffPasskeys.id, transports: staffPasskeys.transports })
    .from(staffPasskeys)
    .where(eq(staffPasskeys.staffId, member.id));
  return generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: member.email,
    userID: new TextEncoder().encode(member.id),
    challenge: await newChallenge(db, "register", member.id, now),
    attestationType: "none",
    // One passkey per device: the browser says so instead of making a second one.
    excludeCredentials: existing.map((p) => ({ id: p.id, transports: transportsOf(p) })),
    // Discoverable, so it can sign in without an email; verified by PIN or face, so it is two steps.
    authenticatorSelection: { residentKey: "required", userVerification: "required" },
  });
}

/** Verifies the browser's new passkey and keeps its public key. */
export async function addPasskey(
  call: StaffCall & { rp: RelyingParty },
  member: { id: string; email: string },
  response: RegistrationResponseJSON,
  name: string,
): Promise<Passkey> {
  const now = call.now ?? new Date();
  const verification = await verifyRegistrationResponse({
    response,
    expectedChallenge: takeChallenge(call.db, "register", member.id, now),
    expectedOrigin: call.rp.origin,
    expectedRPID: call.rp.id,
    requireUserVerification: true,
  }).catch(() => ({ verified: false as const }));
  if (!verification.verified) throw new StaffError("passkey_refused", "The passkey could not be checked. Try again.");
  const { credential } = verification.registrationInfo;
  return call.db.transaction(async (tx) => {
    // Locks the person's row, so two additions at once cannot pass the limit together.
    await tx.select({ id: staff.id }).from(staff).where(eq(staff.id, member.id)).for("update");
    const [held] = await tx.select({ n: count() }).from(staffPasskeys).where(eq(staffPasskeys.staffId, member.id));
    if ((held?.n ?? 0) >= MAX_PASSKEYS)
      throw new StaffError("passkey_refused", `You have ${MAX_PASSKEYS} passkeys already. Remove one first.`);
    const [added] = await tx
      .insert(staffPasskeys)
      .values({
        id: credential.id,
        staffId: member.id,
        name: name.trim().slice(0, 60) || "Passkey",
        publicKey: Buffer.from(credential.publicKey).toString("base64url"),
        counter: credential.counter,
        transports: (credential.transports ?? []).join(","),
        createdAt: now,
      })
      .onConflictDoNothing()
      .returning(PASSKEY_COLUMNS);
    if (!added) throw new StaffError("passkey_refused", "This passkey is already added.");
    await recordAudit(tx, {
      actor: call.actor,
      action: "staff.passkey_added",
      target: { kind: "staff", id: member.id },
      outcome: "succeeded",
      detail: { email: member.email, name: added.name },
      clientAddress: call.clientAddress,
      at: now,
    });
    return added;
  });
}

/**
 * What the browser needs to sign with a passkey: any of this person's (a second step, a
 * confirmation), or, with no person, whichever the device holds for us (sign-in without a password).
 */
export async function authenticationOptions(
  db: Db,
  rp: RelyingParty,
  purpose: Exclude<PasskeyPurpose, "register">,
  staffId?: string,
  now = new Date(),
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const theirs = staffId
    ? await db
        .select({ id: staffPasskeys.id, transports: staffPasskeys.transports })
        .from(staffPasskeys)
        .where(eq(staffPasskeys.staffId, staffId))
    : [];
  return generateAuthenticationOptions({
    rpID: rp.id,
    challenge: await newChallenge(db, purpose, staffId, now),
    allowCredentials: theirs.map((p) => ({ id: p.id, transports: transportsOf(p) })),
    userVerification: "required",
  });
}

/**
 * Checks a passkey's signature for `purpose`. Answers whose it is, or undefined: an unknown
 * passkey, another person's, a challenge not ours or used, a counter that went back (a cloned
 * key), a person disabled, or the sandbox's demo admin outside the sandbox.
 */
export async function checkPasskey(
  db: Db,
  rp: RelyingParty,
  input: {
    purpose: Exclude<PasskeyPurpose, "register">;
    response: AuthenticationResponseJSON;
    staffId?: string;
    sandbox: boolean;
  },
  now = new Date(),
): Promise<{ staffId: string; email: string; passkey: string } | undefined> {
  const [row] = await db
    .select({
      id: staffPasskeys.id,
      staffId: staffPasskeys.staffId,
      publicKey: staffPasskeys.publicKey,
      counter: staffPasskeys.counter,
      transports: staffPasskeys.transports,
      name: staffPasskeys.name,
      email: staff.email,
      disabledAt: staff.disabledAt,
      demo: staff.demo,
    })
    .from(staffPasskeys)
    .innerJoin(staff, eq(staff.id, staffPasskeys.staffId))
    .where(eq(staffPasskeys.id, input.response.id));
  if (!row || (input.staffId && row.staffId !== input.staffId)) return undefined;
  const verification = await verifyAuthenticationResponse({
    response: input.response,
    expectedChallenge: takeChallenge(db, input.purpose, input.staffId, now),
    expectedOrigin: rp.origin,
    expectedRPID: rp.id,
    credential: {
      id: row.id,
      publicKey: new Uint8Array(Buffer.from(row.publicKey, "base64url")),
      counter: row.counter,
      transports: transportsOf(row),
    },
    requireUserVerification: true,
  }).catch(() => undefined);
  if (!verification?.verified || row.disabledAt || (row.demo && !input.sandbox)) return undefined;
  await db
    .update(staffPasskeys)
    .set({ counter: verification.authenticationInfo.newCounter, lastUsedAt: now })
    .where(eq(staffPasskeys.id, row.id));
  return { staffId: row.staffId, email: row.email, passkey: row.name };
}

/** Removes one of a person's passkeys: it signs in nowhere from now. */
export async function removePasskey(call: StaffCall, member: { id: string; email: string }, passkeyId: string) {
  const now = call.now ?? new Date();
  await call.db.transaction(async (tx) => {
    const [gone] = await tx
      .delete(staffPasskeys)
      .where(and(eq(staffPasskeys.id, passkeyId), eq(staffPasskeys.staffId, member.id)))
      .returning({ name: staffPasskeys.name });
    if (!gone) throw new StaffError("not_found", "No such passkey.");
    await recordAudit(tx, {
      actor: call.actor,
      action: "staff.passkey_removed",
      target: { kind: "staff", id: member.id },
      outcome: "succeeded",
      detail: { email: member.email, name: gone.name },
      clientAddress: call.clientAddress,
      at: now,
    });
  });
}

/*
 * What the browser sends back, parsed before the library sees it (every input from outside is).
 * base64url fields, bounded; unknown fields are dropped.
 */
const b64url = (max: number) =>
  z
    .string()
    .regex(/^[A-Za-z0-9_-]*$/, "not base64url")
    .max(max);
const common = {
  id: b64url(1364),
  rawId: b64url(1364),
  type: z.literal("public-key"),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
};

export const registrationResponse = z.object({
  ...common,
  response: z.object({
    clientDataJSON: b64url(4096),
    attestationObject: b64url(16384),
    transports: z
      .array(z.enum(["ble", "cable", "hybrid", "internal", "nfc", "smart-card", "usb"]))
      .max(8)
      .optional(),
  }),
}) satisfies z.ZodType<RegistrationResponseJSON, unknown>;

export const authenticationResponse = z.object({
  ...common,
  response: z.object({
    clientDataJSON: b64url(4096),
    authenticatorData: b64url(4096),
    signature: b64url(1024),
    userHandle: b64url(256).optional(),
  }),
}) satisfies z.ZodType<AuthenticationResponseJSON, unknown>;
