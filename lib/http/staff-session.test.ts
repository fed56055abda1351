import { describe, expect, it } from "vitest";
import { issueSession, passwordMatches, sessionIsValid, SESSION_TTL_MS } from "./staff-session";

describe("back-office session", () => {
  it("accepts its own token until it expires", () => {
    const token = issueSession("pw", 1_000);
    expect(sessionIsValid(token, "pw", 2_000)).toBe(true);
    expect(sessionIsValid(token, "pw", 1_000 + SESSION_TTL_MS + 1)).toBe(false);
  });

  it("refuses a token whose expiry was edited, or signed under another password", () => {
    const token = issueSession("pw", 1_000);
    const [, sig] = token.split(".");
    const forged = `${Buffer.from(JSON.stringify({ exp: 9e15, n: "x" })).toString("base64url")}.${sig}`;
    expect(sessionIsValid(forged, "pw", 2_000)).toBe(false);
    expect(sessionIsValid(token, "new password", 2_000)).toBe(false);
    expect(sessionIsValid(undefined, "pw")).toBe(false);
    expect(sessionIsValid("garbage", "pw")).toBe(false);
  });

  it("compares passwords exactly", () => {
    expect(passwordMatches("dev-backoffice", "dev-backoffice")).toBe(true);
    expect(passwordMatches("dev-backoffic", "dev-backoffice")).toBe(false);
  });
});
