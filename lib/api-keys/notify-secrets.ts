import { randomBytes, randomUUID } from "node:crypto";
import { and, desc, eq, gt, isNull, or } from "drizzle-orm";
import { recordAudit, type AuditActor } from "../audit/audit";
import { openToken, sealToken, type TokenKey } from "../checkout/token-vault";
import type { Db } from "../db";
import { notifySecrets } from "../db/schema";
import { ApiKeyError } from "./keys";
import { MAX_OVERLAP_MS } from "./scopes";

/**
 * The secrets that sign our notifications (README "Notifications"), made in the back office. Every
 * secret not ended signs every notification, as Stripe sends several `v1=`: rolling makes a new
 * secret and lets the old one sign on for a chosen overlap, so the merchant moves to the new one
 * without refusing a notification. MERCHANT_NOTIFY_SECRET from the settings signs too while set.
 */

export interface NotifySecretView {
  id: string;
  prefix: string;
  createdAt: Date;
  expiresAt: Date | null;
}

interface SecretCall {
  db: Db;
  actor: AuditActor;
  keys: readonly TokenKey[];
  clientAddress?: string;
  now?: Date;
}

const live = (now: Date) => or(isNull(notifySecrets.expiresAt), gt(notifySecrets.expiresAt, now));

export async function listNotifySecrets(db: Db): Promise<NotifySecretView[]> {
  return db
    .select({
      id: notifySecrets.id,
      prefix: notifySecrets.prefix,
      createdAt: notifySecrets.createdAt,
      expiresAt: notifySecrets.expiresAt,
    })
    .from(notifySecrets)
    .orderBy(desc(notifySecrets.createdAt));
}

/** Every secret that signs a notification sent now: the settings' one (if any), then ours. */
export async function signingSecrets(
  db: Db,
  keys: readonly TokenKey[],
  fromSettings: string | undefined,
  now = new Date(),
) {
  const rows = await db.select({ sealed: notifySecrets.sealed }).from(notifySecrets).where(live(now));
  return [...(fromSettings ? [fromSettings] : []), ...rows.map((r) => openToken(r.sealed, keys))];
}

/**
 * A new secret, answered once. Given `replacing`, that secret signs on for `overlapMs` (at most 7
 * days) and then stops: a roll.
 */
export async function makeNotifySecret(
  call: SecretCall,
  replacing?: { id: string; overlapMs: number },
): Promise<{ id: string; secret: string }> {
  if (
    replacing &&
    (!Number.isInteger(replacing.overlapMs) || replacing.overlapMs < 0 || replacing.overlapMs > MAX_OVERLAP_MS)
  )
    throw new ApiKeyError("invalid_overlap", "The old secret may keep signing for up to 7 days.");
  const now = call.now ?? new Date();
  const secret = `whsec_${randomBytes(32).toString("base64url")}`;
  const id = `whs_${randomUUID()}`;
  return call.db.transaction(async (tx) => {
    if (replacing) {
      const [old] = await tx
        .update(notifySecrets)
        .set({ expiresAt: new Date(now.getTime() + replacing.overlapMs) })
        // Only one not rolled before: a roll's overlap is set once.
        .where(and(eq(notifySecrets.id, replacing.id), isNull(notifySecrets.expiresAt)))
        .returning({ id: notifySecrets.id });
      if (!old)
        throw new ApiKeyError(
          "not_active",
          "This secret was rolled already, or has stopped signing: roll the newest one.",
        );
    }
    await tx.insert(notifySecrets).values({
      id,
      sealed: sealToken(secret, call.keys),
      prefix: secret.slice(0, 12),
      createdBy: "id" in call.actor ? call.actor.id : null,
      createdAt: now,
    });
    await recordAudit(tx, {
      actor: call.actor,
      action: replacing ? "notify_secret.rolled" : "notify_secret.created",
      target: { kind: "notify_secret", id: replacing?.id ?? id },
      outcome: "succeeded",
      detail: replacing
        ? { replacedBy: id, oldSecretEnds: new Date(now.getTime() + replacing.overlapMs).toISOString() }
        : { prefix: secret.slice(0, 12) },
      clientAddress: call.clientAddress,
      at: now,
    });
    return { id, secret };
  });
}
