import { createHash, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import { and, desc, eq, gt, isNull, or } from "drizzle-orm";
import type { AuditActor } from "../audit/audit";
import { recordAudit } from "../audit/audit";
import type { Db, Tx } from "../db";
import { apiKeys } from "../db/schema";
import { API_SCOPES, MAX_OVERLAP_MS, type ApiScope } from "./scopes";

export { API_SCOPES, ROLL_OVERLAPS, type ApiScope } from "./scopes";

/**
 * The merchant's API keys (ADR 27): named, with scopes, shown once, stored as sha256. Rolling makes
 * a new key and lets the old one work for a chosen overlap (up to 7 days), so the merchant's
 * backend switches without failing; revoking stops a key at once. MERCHANT_API_KEY from the
 * settings still works as one more key with every scope.
 */

/** Who an API request is: a key made in the back office, or the settings' MERCHANT_API_KEY. */
export interface ApiCaller {
  id: string;
  name: string;
  scopes: readonly ApiScope[];
}

export const LEGACY_CALLER: ApiCaller = { id: "env:MERCHANT_API_KEY", name: "MERCHANT_API_KEY", scopes: API_SCOPES };

export interface ApiKeyView {
  id: string;
  name: string;
  prefix: string;
  scopes: ApiScope[];
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
  replacedBy: string | null;
}

export class ApiKeyError extends Error {
  constructor(
    readonly code: "invalid_name" | "invalid_scopes" | "invalid_overlap" | "not_found" | "not_active",
    message: string,
  ) {
    super(message);
  }
}

interface KeyCall {
  db: Db;
  actor: AuditActor;
  clientAddress?: string;
  now?: Date;
  /** bck_test_ keys in sandbox mode, bck_live_ against a real provider. */
  live: boolean;
}

const secretHash = (secret: string) => createHash("sha256").update(`api-key:${secret}`).digest("hex");
const KEY_SHAPE = /^bck_(live|test)_[A-Za-z0-9_-]{40,64}$/;

const view = {
  id: apiKeys.id,
  name: apiKeys.name,
  prefix: apiKeys.prefix,
  scopes: apiKeys.scopes,
  createdAt: apiKeys.createdAt,
  lastUsedAt: apiKeys.lastUsedAt,
  expiresAt: apiKeys.expiresAt,
  revokedAt: apiKeys.revokedAt,
  replacedBy: apiKeys.replacedBy,
};

export async function listApiKeys(db: Db): Promise<ApiKeyView[]> {
  return (await db.select(view).from(apiKeys).orderBy(desc(apiKeys.createdAt))) as ApiKeyView[];
}

function checkInput(name: string, scopes: readonly string[]): ApiScope[] {
  if (!name.trim() || name.length > 80)
    throw new ApiKeyError("invalid_name", "Give the key a name of 1 to 80 characters.");
  const chosen = API_SCOPES.filter((s) => scopes.includes(s));
  if (chosen.length === 0 || chosen.length !== new Set(scopes).size)
    throw new ApiKeyError("invalid_scopes", "Choose at least one scope.");
  return chosen;
}

async function insertKey(tx: Tx, call: KeyCall, name: string, scopes: ApiScope[], now: Date) {
  const secret = `bck_${call.live ? "live" : "test"}_${randomBytes(32).toString("base64url")}`;
  const id = `key_${randomUUID()}`;
  await tx.insert(apiKeys).values({
    id,
    name: name.trim(),
    prefix: secret.slice(0, 16),
    secretHash: secretHash(secret),
    scopes,
    createdBy: "id" in call.actor ? call.actor.id : null,
    createdAt: now,
  });
  return { id, secret };
}

const audit = (
  tx: Tx,
  call: KeyCall,
  action: "api_key.created" | "api_key.rolled" | "api_key.revoked",
  id: string,
  detail: Record<string, string>,
) =>
  recordAudit(tx, {
    actor: call.actor,
    action,
    target: { kind: "api_key", id },
    outcome: "succeeded",
    detail,
    clientAddress: call.clientAddress,
    at: call.now,
  });

/** A new key; its secret is answered once and never stored. */
export async function createApiKey(
  call: KeyCall,
  input: { name: string; scopes: readonly string[] },
): Promise<{ id: string; secret: string }> {
  const scopes = checkInput(input.name, input.scopes);
  const now = call.now ?? new Date();
  return call.db.transaction(async (tx) => {
    const made = await insertKey(tx, call, input.name, scopes, now);
    await audit(tx, call, "api_key.created", made.id, { name: input.name.trim(), scopes: scopes.join(" ") });
    return made;
  });
}

/** A new key with the same name and scopes; the old one works `overlapMs` longer (0 to 7 days). */
export async function rollApiKey(
  call: KeyCall,
  id: string,
  overlapMs: number,
): Promise<{ id: string; secret: string }> {
  if (!Number.isInteger(overlapMs) || overlapMs < 0 || overlapMs > MAX_OVERLAP_MS)
    throw new ApiKeyError("invalid_overlap", "The old key may keep working for up to 7 days.");
  const now = call.now ?? new Date();
  return call.db.transaction(async (tx) => {
    const [old] = await tx.select(view).from(apiKeys).where(eq(apiKeys.id, id)).for("update");
    if (!old) throw new ApiKeyError("not_found", "No such key.");
    if (!isActive(old as ApiKeyView, now) || old.replacedBy)
      throw new ApiKeyError("not_active", "This key was revoked, rolled or has ended: make a new one.");
    const made = await insertKey(tx, call, old.name, old.scopes as ApiScope[], now);
    const ends = new Date(now.getTime() + overlapMs);
    await tx.update(apiKeys).set({ expiresAt: ends, replacedBy: made.id }).where(eq(apiKeys.id, id));
    await audit(tx, call, "api_key.rolled", id, {
      name: old.name,
      replacedBy: made.id,
      oldKeyEnds: ends.toISOString(),
    });
    return made;
  });
}

export async function revokeApiKey(call: KeyCall, id: string): Promise<void> {
  const now = call.now ?? new Date();
  await call.db.transaction(async (tx) => {
    const [row] = await tx
      .update(apiKeys)
      .set({ revokedAt: now })
      .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
      .returning({ name: apiKeys.name });
    if (!row) throw new ApiKeyError("not_found", "No such key, or it is revoked already.");
    await audit(tx, call, "api_key.revoked", id, { name: row.name });
  });
}

export const isActive = (k: Pick<ApiKeyView, "revokedAt" | "expiresAt">, now: Date) =>
  !k.revokedAt && (!k.expiresAt || k.expiresAt > now);

/**
 * The caller a Bearer token names, or undefined. Read from the database on every request, so a
 * revoke holds on every instance at once; the time it was last used is written at most about once
 * a minute per key.
 */
export async function apiCallerOf(
  db: Db,
  token: string,
  legacyKey: string | undefined,
  now = new Date(),
): Promise<ApiCaller | undefined> {
  if (legacyKey !== undefined && sameSecret(token, legacyKey)) return LEGACY_CALLER;
  if (!KEY_SHAPE.test(token)) return undefined;
  const [row] = await db
    .select({ id: apiKeys.id, name: apiKeys.name, scopes: apiKeys.scopes, lastUsedAt: apiKeys.lastUsedAt })
    .from(apiKeys)
    .where(
      and(
        eq(apiKeys.secretHash, secretHash(token)),
        isNull(apiKeys.revokedAt),
        or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, now)),
      ),
    );
  if (!row) return undefined;
  // One trip on most calls: "last used" is written only when it is over a minute old.
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > 60_000)
    await db.update(apiKeys).set({ lastUsedAt: now }).where(eq(apiKeys.id, row.id));
  return { id: row.id, name: row.name, scopes: row.scopes as ApiScope[] };
}

function sameSecret(given: string, expected: string): boolean {
  // Hashed first, so the comparison takes the same time whatever the lengths.
  const a = createHash("sha256").update(given).digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b);
}
