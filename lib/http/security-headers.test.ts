import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { API_CSP, commonSecurityHeaders, documentLangScriptHashes, newNonce, pageCsp } from "./security-headers";

const directives = (csp: string) =>
  new Map(
    csp
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...values]) => [name, values] as const),
  );
const base = { nonce: "abc123==", appUrl: "http://localhost:3000", providerBaseUrl: "http://localhost:3001/platform" };

describe("pageCsp", () => {
  it("allows scripts only by nonce (and the html-lang hashes), never inline or eval", () => {
    const d = directives(pageCsp(base));
    const script = d.get("script-src") ?? [];
    expect(script).toContain("'nonce-abc123=='");
    expect(script).toContain("'strict-dynamic'");
    expect(script).not.toContain("'unsafe-inline'");
    expect(script).not.toContain("'unsafe-eval'");
    expect(d.get("object-src")).toEqual(["'none'"]);
    expect(d.get("base-uri")).toEqual(["'none'"]);
    expect(d.get("frame-ancestors")).toEqual(["'none'"]);
  });

  it("lets bank logos load from the provider's origin, and nothing else from elsewhere", () => {
    const d = directives(pageCsp({ ...base, providerBaseUrl: "https://api.kevin.eu/platform" }));
    expect(d.get("img-src")).toContain("https://api.kevin.eu");
    expect(d.get("connect-src")).toEqual(["'self'"]);
    expect(d.get("default-src")).toEqual(["'self'"]);
  });

  it("lets a posted payment form go on to where confirm links lead (the provider's hosted pages), once each", () => {
    const d = directives(
      pageCsp({
        ...base,
        providerBaseUrl: "https://api.kevin.eu/platform",
        confirmOrigins: ["https://api.kevin.eu", "https://psd2.kevin.eu"],
      }),
    );
    expect(d.get("form-action")).toEqual(["'self'", "https://api.kevin.eu", "https://psd2.kevin.eu"]);
  });

  it("lets the embedded picker be framed by the configured origins only", () => {
    const origins = ["https://shop.example", "http://localhost:3002"];
    expect(directives(pageCsp({ ...base, frameAncestors: origins })).get("frame-ancestors")).toEqual(origins);
    expect(directives(pageCsp({ ...base, frameAncestors: [] })).get("frame-ancestors")).toEqual(["'none'"]);
  });

  it("allows the inline <html lang> script of each locale by its exact hash", () => {
    const hash = `'sha256-${createHash("sha256").update('document.documentElement.lang="lt";').digest("base64")}'`;
    expect(documentLangScriptHashes()).toContain(hash);
    expect(directives(pageCsp(base)).get("script-src")).toContain(hash);
  });

  it("adds eval only in development, and upgrade-insecure-requests only on https", () => {
    expect(directives(pageCsp({ ...base, dev: true })).get("script-src")).toContain("'unsafe-eval'");
    expect(directives(pageCsp(base)).has("upgrade-insecure-requests")).toBe(false);
    expect(directives(pageCsp({ ...base, appUrl: "https://pay.example" })).has("upgrade-insecure-requests")).toBe(true);
  });
});

describe("commonSecurityHeaders", () => {
  it("sends nosniff, a referrer and a permissions policy, and no framing", () => {
    const h = commonSecurityHeaders("http://localhost:3000");
    expect(h["X-Content-Type-Options"]).toBe("nosniff");
    expect(h["Referrer-Policy"]).toBe("strict-origin-when-cross-origin");
    expect(h["Permissions-Policy"]).toMatch(/camera=\(\)/);
    expect(h["X-Frame-Options"]).toBe("DENY");
  });

  it("leaves X-Frame-Options out only on a page some origins may frame (it cannot name them)", () => {
    expect(commonSecurityHeaders("http://localhost:3000", { framable: true })["X-Frame-Options"]).toBeUndefined();
  });

  it("sends HSTS only when the app is served over https", () => {
    expect(commonSecurityHeaders("http://localhost:3000")["Strict-Transport-Security"]).toBeUndefined();
    expect(commonSecurityHeaders("https://pay.example")["Strict-Transport-Security"]).toBe("max-age=31536000");
  });

  it("API responses may load and be framed by nothing", () => {
    expect(directives(API_CSP).get("default-src")).toEqual(["'none'"]);
    expect(directives(API_CSP).get("frame-ancestors")).toEqual(["'none'"]);
  });
});

describe("newNonce", () => {
  it("is 128 random bits, different every time", () => {
    const nonces = new Set(Array.from({ length: 1000 }, newNonce));
    expect(nonces.size).toBe(1000);
    expect(Buffer.from(newNonce(), "base64")).toHaveLength(16);
  });
});
