import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { staffSessions } from "../db/schema";
import type { Db } from "../db";
import { openTestDb, testDbKinds } from "../db/testing";
import {
  SESSION_TTL_MS,
  endAllSessions,
  endSession,
  openSession,
  passwordMatches,
  sessionIsValid,
} from "./staff-session";

describe.each(testDbKinds())("back-office sessions (%s)", (kind) => {
  let db: Db;
  let close: () => Promise<void>;
  beforeAll(async () => ({ db, close } = await openTestDb(kind)));
  afterAll(() => close());

  it("accepts its own token until it expires", async () => {
    const start = new Date("2026-01-01T08:00:00Z");
    const token = await openSession(db, "pw", start);
    expect(await sessionIsValid(db, token, "pw", new Date(start.getTime() + 1000))).toBe(true);
    expect(await sessionIsValid(db, token, "pw", new Date(start.getTime() + SESSION_TTL_MS + 1))).toBe(false);
  });

  it("refuses a made-up token, and every session once the staff password changes", async () => {
    const token = await openSession(db, "pw");
    expect(await sessionIsValid(db, "A".repeat(43), "pw")).toBe(false);
    expect(await sessionIsValid(db, undefined, "pw")).toBe(false);
    expect(await sessionIsValid(db, "garbage", "pw")).toBe(false);
    expect(await sessionIsValid(db, token, "new password")).toBe(false);
  });

  it("keeps nothing a stolen copy of the database could test password guesses against", async () => {
    await endAllSessions(db);
    await openSession(db, "dev-backoffice");
    await openSession(db, "dev-backoffice");
    const rows = await db.select().from(staffSessions);
    // A tag made of the password alone is the same in every session, and one hash per guess finds it.
    expect(new Set(rows.map((r) => r.passwordTag)).size).toBe(2);
    const guess = createHash("sha256").update("staff-password:dev-backoffice").digest("hex");
    for (const row of rows) expect(guess.startsWith(row.passwordTag)).toBe(false);
  });

  it("Sign out ends that session only; Sign out everywhere ends them all", async () => {
    const [a, b, c] = [await openSession(db, "pw"), await openSession(db, "pw"), await openSession(db, "pw")];
    await endSession(db, a);
    expect([
      await sessionIsValid(db, a, "pw"),
      await sessionIsValid(db, b, "pw"),
      await sessionIsValid(db, c, "pw"),
    ]).toEqual([false, true, true]);
    await endAllSessions(db);
    expect([await sessionIsValid(db, b, "pw"), await sessionIsValid(db, c, "pw")]).toEqual([false, false]);
  });

  it("keeps only a hash of the token: the database alone cannot sign anyone in", async () => {
    const token = await openSession(db, "pw");
    const rows = await db.execute("select token_hash from staff_sessions");
    expect(JSON.stringify(rows)).not.toContain(token);
  });
});

describe("staff password", () => {
  it("compares passwords exactly", () => {
    expect(passwordMatches("dev-backoffice", "dev-backoffice")).toBe(true);
    expect(passwordMatches("dev-backoffic", "dev-backoffice")).toBe(false);
  });
});
