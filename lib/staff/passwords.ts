import { hash, verify } from "@node-rs/argon2";

/**
 * Staff passwords hashed with argon2id, the library's defaults (19 MiB, 2 passes, 1 lane: OWASP's
 * recommendation, about 40 ms here). The rules a new one must meet are in password-rules.ts.
 */

// @node-rs/argon2's Algorithm.Argon2id; its const enum cannot be imported under isolatedModules.
const ARGON2ID = 2;

export function hashPassword(password: string): Promise<string> {
  return hash(password, { algorithm: ARGON2ID });
}

export async function passwordVerifies(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false; // a malformed hash proves nothing
  }
}

// Verified against when no account matches, so an unknown address costs the same time as a wrong
// password and the answer's timing does not tell which addresses have accounts.
let decoy: Promise<string> | undefined;
export async function spendVerifyTime(password: string): Promise<void> {
  decoy ??= hashPassword("decoy password never used");
  await passwordVerifies(await decoy, password);
}
