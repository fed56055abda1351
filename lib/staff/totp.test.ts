import { describe, expect, it } from "vitest";
import { base32Decode, base32Encode, newTotpSecret, otpauthUri, stepOf, totpCode, verifyTotp } from "./totp";

// RFC 6238 appendix B: the SHA-1 secret "12345678901234567890", 8 digits.
const RFC_SECRET = base32Encode(Buffer.from("12345678901234567890"));
const RFC_VECTORS: [number, string][] = [
  [59, "94287082"],
  [1111111109, "07081804"],
  [1111111111, "14050471"],
  [1234567890, "89005924"],
  [2000000000, "69279037"],
  [20000000000, "65353130"],
];

describe("TOTP", () => {
  it("gives RFC 6238's test values", () => {
    for (const [seconds, code] of RFC_VECTORS)
      expect(totpCode(RFC_SECRET, stepOf(new Date(seconds * 1000)), 8)).toBe(code);
  });

  it("round-trips base32, and makes 160-bit secrets", () => {
    const bytes = Buffer.from([0, 1, 2, 250, 251, 252, 253, 254, 255]);
    expect(base32Decode(base32Encode(bytes))).toEqual(bytes);
    expect(base32Decode(newTotpSecret())).toHaveLength(20);
    expect(base32Encode(Buffer.from("foobar"))).toBe("MZXW6YTBOI"); // RFC 4648 §10
  });

  it("takes the code of the step before, now and after, and nothing further or already used", () => {
    const secret = newTotpSecret();
    const now = new Date("2026-12-06T10:00:15Z");
    const step = stepOf(now);
    expect(verifyTotp(secret, totpCode(secret, step), now)).toBe(step);
    expect(verifyTotp(secret, totpCode(secret, step - 1), now)).toBe(step - 1);
    expect(verifyTotp(secret, totpCode(secret, step + 1), now)).toBe(step + 1);
    expect(verifyTotp(secret, totpCode(secret, step - 2), now)).toBeUndefined();
    expect(verifyTotp(secret, totpCode(secret, step), now, step)).toBeUndefined();
    expect(verifyTotp(secret, "12345", now)).toBeUndefined();
    expect(verifyTotp(secret, ` ${totpCode(secret, step).slice(0, 3)} ${totpCode(secret, step).slice(3)}`, now)).toBe(
      step,
    );
  });

  it("writes the otpauth URI apps read", () => {
    expect(otpauthUri("JBSWY3DPEHPK3PXP", "ana@shop.example", "Bank checkout")).toBe(
      "otpauth://totp/Bank%20checkout%3Aana%40shop.example?secret=JBSWY3DPEHPK3PXP&issuer=Bank+checkout&algorithm=SHA1&digits=6&period=30",
    );
  });
});
