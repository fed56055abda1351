import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

/**
 * Seals provider tokens (linked bank accounts) for storage with AES-256-GCM. The sealed form
 * names its key, `v1.<keyId>.<iv>.<tag>.<ciphertext>` (base64url parts), so keys can rotate:
 * seal with the newest, open with whichever key sealed it, re-seal the old ones at leisure.
 */
export interface TokenKey {
  id: string;
  key: Buffer;
}

export class TokenVaultError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TokenVaultError";
  }
}

// The key id is bound to the ciphertext as additional data: a token cannot be relabelled.
const aad = (keyId: string) => Buffer.from(`token-vault:v1:${keyId}`);

export function sealToken(plaintext: string, keys: readonly TokenKey[]): string {
  const current = keys[0];
  if (!current) throw new TokenVaultError("no encryption key configured");
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", current.key, iv);
  cipher.setAAD(aad(current.id));
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return [
    "v1",
    current.id,
    iv.toString("base64url"),
    cipher.getAuthTag().toString("base64url"),
    ciphertext.toString("base64url"),
  ].join(".");
}

export function openToken(sealed: string, keys: readonly TokenKey[]): string {
  const [version, keyId, iv, tag, ciphertext] = sealed.split(".");
  if (version !== "v1" || !keyId || !iv || !tag || ciphertext === undefined)
    throw new TokenVaultError("not a sealed token");
  const entry = keys.find((k) => k.id === keyId);
  if (!entry) throw new TokenVaultError(`key ${keyId} is not configured`);
  try {
    const decipher = createDecipheriv("aes-256-gcm", entry.key, Buffer.from(iv, "base64url"));
    decipher.setAAD(aad(keyId));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    // GCM refuses a wrong key and any change to the sealed bytes alike.
    throw new TokenVaultError("token cannot be opened: wrong key or altered");
  }
}

/** Whether a sealed token should be re-sealed because a newer key is now first. */
export function needsReseal(sealed: string, keys: readonly TokenKey[]): boolean {
  return sealed.split(".")[1] !== keys[0]?.id;
}
