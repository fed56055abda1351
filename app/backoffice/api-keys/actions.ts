"use server";

import { z } from "zod";
import type { ActionResult } from "@/components/backoffice/action-state";
import { auditActorOf, requireRecentSignIn } from "@/components/backoffice/require-staff";
import { ApiKeyError, ROLL_OVERLAPS, createApiKey, revokeApiKey, rollApiKey } from "@/lib/api-keys/keys";
import { makeNotifySecret } from "@/lib/api-keys/notify-secrets";
import type { AuditAction } from "@/lib/audit/actions";
import { recordAudit } from "@/lib/audit/audit";
import { appContext } from "@/lib/checkout/app-context";
import { env } from "@/lib/env";

/** What making or rolling a key answers: the key itself, shown once. */
export type KeyResult = (ActionResult & { secret?: string }) | null;

const NOT_A_FORM = "This form could not be read. Reload the page and try again.";
const keyId = z.string().regex(/^key_[0-9a-f-]{36}$/);
async function keyCall() {
  const member = await requireRecentSignIn("api_keys.manage", "/backoffice/api-keys");
  const { db, config } = await appContext();
  return { db, keys: config.tokenKeys, ...(await auditActorOf(member)), live: !env().sandbox };
}

async function refused(
  err: unknown,
  call: Awaited<ReturnType<typeof keyCall>>,
  action: AuditAction,
  id?: string,
): Promise<ActionResult> {
  if (!(err instanceof ApiKeyError)) throw err;
  await recordAudit(call.db, {
    actor: call.actor,
    action,
    target: id ? { kind: id.startsWith("whs_") ? "notify_secret" : "api_key", id } : undefined,
    outcome: "refused",
    detail: { reason: err.code },
    clientAddress: call.clientAddress,
  });
  return { ok: false, error: err.message };
}

export async function createKeyAction(_previous: KeyResult, formData: FormData): Promise<KeyResult> {
  const call = await keyCall();
  if (!(formData instanceof FormData)) return { ok: false, error: NOT_A_FORM };
  const name = formData.get("name");
  const scopes = formData.getAll("scopes").filter((s): s is string => typeof s === "string");
  if (typeof name !== "string") return { ok: false, error: NOT_A_FORM };
  try {
    const { secret } = await createApiKey(call, { name, scopes });
    return { ok: true, message: "The key is made. Copy it now: it is shown only this once.", secret };
  } catch (err) {
    return refused(err, call, "api_key.created");
  }
}

export async function rollKeyAction(_previous: KeyResult, formData: FormData): Promise<KeyResult> {
  const call = await keyCall();
  if (!(formData instanceof FormData)) return { ok: false, error: NOT_A_FORM };
  const id = keyId.safeParse(formData.get("keyId"));
  const overlap = ROLL_OVERLAPS[String(formData.get("overlap"))];
  if (!id.success || !overlap) return { ok: false, error: NOT_A_FORM };
  try {
    const { secret } = await rollApiKey(call, id.data, overlap.ms);
    return {
      ok: true,
      message: `The new key is below, shown only this once. The old key ${overlap.ms ? `keeps working for ${overlap.label}` : "has stopped"}.`,
      secret,
    };
  } catch (err) {
    return refused(err, call, "api_key.rolled", id.data);
  }
}

export async function revokeKeyAction(_previous: ActionResult | null, formData: FormData): Promise<ActionResult> {
  const call = await keyCall();
  if (!(formData instanceof FormData)) return { ok: false, error: NOT_A_FORM };
  const id = keyId.safeParse(formData.get("keyId"));
  if (!id.success) return { ok: false, error: NOT_A_FORM };
  try {
    await revokeApiKey(call, id.data);
    return { ok: true, message: "The key is revoked: every request with it is refused from now on." };
  } catch (err) {
    return refused(err, call, "api_key.revoked", id.data);
  }
}

const secretId = z.string().regex(/^whs_[0-9a-f-]{36}$/);

/** A new notification signing secret, shown once; from now on every notification carries its signature too. */
export async function makeSecretAction(_previous: KeyResult, formData: FormData): Promise<KeyResult> {
  const call = await keyCall();
  if (!(formData instanceof FormData)) return { ok: false, error: NOT_A_FORM };
  const { secret } = await makeNotifySecret(call);
  return {
    ok: true,
    message:
      "The secret is made and signs every notification from now on, beside the others. Copy it now: it is shown only this once.",
    secret,
  };
}

/** Rolls a signing secret: a new one signs at once, the old one for the overlap chosen. */
export async function rollSecretAction(_previous: KeyResult, formData: FormData): Promise<KeyResult> {
  const call = await keyCall();
  if (!(formData instanceof FormData)) return { ok: false, error: NOT_A_FORM };
  const id = secretId.safeParse(formData.get("secretId"));
  const overlap = ROLL_OVERLAPS[String(formData.get("overlap"))];
  if (!id.success || !overlap) return { ok: false, error: NOT_A_FORM };
  try {
    const { secret } = await makeNotifySecret(call, { id: id.data, overlapMs: overlap.ms });
    return {
      ok: true,
      message: `The new secret is below, shown only this once. The old one ${overlap.ms ? `signs on for ${overlap.label}` : "has stopped signing"}.`,
      secret,
    };
  } catch (err) {
    return refused(err, call, "notify_secret.rolled", id.data);
  }
}
