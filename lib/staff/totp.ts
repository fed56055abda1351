import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * Time-based one-time passwords (RFC 6238 over RFC 4226): HMAC-SHA1, 6 digits, 30-second steps,
 * what every authenticator app reads from an otpauth:// QR code. A code is accepted for the step
 * before and after (clocks drift), and never for a step at or before the last one used, so a code
 * seen over a shoulder cannot be used again.
 */

const STEP_SECONDS = 30;
const DIGITS = 6;
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

export function base32Encode(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31];
  return out;
}

export function base32Decode(text: string): Buffer {
  const clean = text.replace(/[\s=]/g, "").toUpperCase();
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of clean) {
    const index = ALPHABET.indexOf(char);
    if (index < 0) throw new Error("not base32");
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** A new secret: 20 random bytes (160 bits, RFC 4226's recommendation), base32 as apps take it. */
export const newTotpSecret = () => base32Encode(randomBytes(20));

export const stepOf = (at: Date) => Math.floor(at.getTime() / 1000 / STEP_SECONDS);

/** The code for one step (RFC 4226 HOTP with the step as the counter). */
export function totpCode(secret: string, step: number, digits = DIGITS, algorithm = "sha1"): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const mac = createHmac(algorithm, base32Decode(secret)).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0xf;
  const number = (mac.readUInt32BE(offset) & 0x7fffffff) % 10 ** digits;
  return String(number).padStart(digits, "0");
}

/**
 * The step a typed code belongs to, within one step of now and after `lastStep`, or undefined. Every
 * candidate is compared, in constant time, so the answer's timing says nothing of which one matched.
 */
export function verifyTotp(secret: string, code: string, at: Date, lastStep = -1): number | undefined {
  const typed = code.replace(/\s/g, "");
  if (!/^\d{6}$/.test(typed)) return undefined;
  const now = stepOf(at);
  let matched: number | undefined;
  for (const step of [now - 1, now, now + 1]) {
    const same = timingSafeEqual(Buffer.from(totpCode(secret, step)), Buffer.from(typed));
    if (same && step > lastStep && matched === undefined) matched = step;
  }
  return matched;
}

/** What an authenticator app reads from the QR code. */
export function otpauthUri(secret: string, account: string, issuer: string): string {
  const label = encodeURIComponent(`${issuer}:${account}`);
  const params = new URLSearchParams({ secret, issuer, algorithm: "SHA1", digits: String(DIGITS), period: "30" });
  return `otpauth://totp/${label}?${params}`;
}
