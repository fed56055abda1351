import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { needsReseal, openToken, sealToken, TokenVaultError } from "./token-vault";

const key = (id: string) => ({ id, key: randomBytes(32) });
const k1 = key("k1");
const k2 = key("k2");

describe("token vault", () => {
  it("seals and opens a token; the sealed form does not contain it", () => {
    const sealed = sealToken("access-token-secret-value", [k1]);
    expect(sealed).not.toContain("access-token-secret-value");
    expect(openToken(sealed, [k1])).toBe("access-token-secret-value");
  });

  it("seals the same token differently every time", () => {
    expect(sealToken("t", [k1])).not.toBe(sealToken("t", [k1]));
  });

  it("cannot open a token with the wrong key", () => {
    const sealed = sealToken("t", [k1]);
    expect(() => openToken(sealed, [{ id: "k1", key: randomBytes(32) }])).toThrow(TokenVaultError);
    expect(() => openToken(sealed, [k2])).toThrow(/key k1 is not configured/);
  });

  it("notices any change to the sealed token, including a relabelled key id", () => {
    const sealed = sealToken("token", [k1]);
    const parts = sealed.split(".");
    const flipped = Buffer.from(parts[4]!, "base64url");
    flipped[0]! ^= 1;
    expect(() => openToken([...parts.slice(0, 4), flipped.toString("base64url")].join("."), [k1])).toThrow(
      TokenVaultError,
    );
    const relabelled = { id: "k9", key: k1.key };
    expect(() => openToken(["v1", "k9", ...parts.slice(2)].join("."), [relabelled])).toThrow(TokenVaultError);
  });

  it("rotates: new tokens use the newest key, old ones still open and are marked for re-sealing", () => {
    const old = sealToken("old", [k1]);
    const rotated = [k2, k1];
    expect(openToken(old, rotated)).toBe("old");
    expect(needsReseal(old, rotated)).toBe(true);
    const fresh = sealToken("new", rotated);
    expect(fresh.split(".")[1]).toBe("k2");
    expect(needsReseal(fresh, rotated)).toBe(false);
  });
});
