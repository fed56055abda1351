import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../db";
import { openTestDb, testDbKinds } from "../db/testing";
import { inviteStaff, setDisabled, setPasswordFromLink } from "./accounts";
import {
  SESSION_TTL_MS,
  endSession,
  endSessionsOf,
  openSession,
  reauthenticate,
  sessionOf,
  signedInRecently,
} from "./sessions";

describe.each(testDbKinds())("back-office sessions (%s)", (kind) => {
  let db: Db;
  let close: () => Promise<void>;
  let ana: string;
  let ben: string;
  beforeAll(async () => {
    ({ db, close } = await openTestDb(kind));
    const call = { db, actor: { kind: "system", label: "test" } as const };
    ana = (await inviteStaff(call, { email: "ana@shop.example", role: "finance" })).member.id;
    ben = (await inviteStaff(call, { email: "ben@shop.example", role: "viewer" })).member.id;
  });
  afterAll(() => close());

  it("says whose session it is, with their role, until it expires", async () => {
    const start = new Date("2026-01-01T08:00:00Z");
    const token = await openSession(db, ana, { now: start });
    expect(await sessionOf(db, token, new Date(start.getTime() + 1000))).toMatchObject({
      id: ana,
      email: "ana@shop.example",
      role: "finance",
      authenticatedAt: start,
    });
    expect(await sessionOf(db, token, new Date(start.getTime() + SESSION_TTL_MS + 1))).toBeUndefined();
  });

  it("refuses a made-up token", async () => {
    expect(await sessionOf(db, "A".repeat(43))).toBeUndefined();
    expect(await sessionOf(db, undefined)).toBeUndefined();
    expect(await sessionOf(db, "garbage")).toBeUndefined();
  });

  it("Sign out ends that session only; Sign out everywhere ends all of one person's, not another's", async () => {
    const [a, b, c] = [await openSession(db, ana), await openSession(db, ana), await openSession(db, ben)];
    await endSession(db, a);
    expect([!!(await sessionOf(db, a)), !!(await sessionOf(db, b)), !!(await sessionOf(db, c))]).toEqual([
      false,
      true,
      true,
    ]);
    await endSessionsOf(db, ana);
    expect([!!(await sessionOf(db, b)), !!(await sessionOf(db, c))]).toEqual([false, true]);
  });

  it("a disabled person's open session opens nothing at its next request", async () => {
    const token = await openSession(db, ben);
    expect(await sessionOf(db, token)).toBeDefined();
    await setDisabled({ db, actor: { kind: "system", label: "test" } }, ben, true);
    expect(await sessionOf(db, token)).toBeUndefined();
  });

  it("keeps only a hash of the token: the database alone cannot sign anyone in", async () => {
    const token = await openSession(db, ana);
    const rows = await db.execute("select token_hash from staff_sessions");
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it("setting a new password ends the person's sessions", async () => {
    const { token: link, member } = await inviteStaff(
      { db, actor: { kind: "system", label: "test" } },
      { email: "cy@shop.example", role: "support" },
    );
    const before = await openSession(db, member.id);
    await setPasswordFromLink(db, { token: link, password: "a long enough passphrase" });
    expect(await sessionOf(db, before)).toBeUndefined();
  });
});

describe.each(testDbKinds())("recent sign-in (%s)", (kind) => {
  it("counts for 5 minutes after the password or a code, and again after proving it anew", async () => {
    const { db, close } = await openTestDb(kind);
    const { member } = await inviteStaff(
      { db, actor: { kind: "system", label: "test" } },
      { email: "sudo@shop.example", role: "admin" },
    );
    const t0 = new Date("2026-12-06T09:00:00Z");
    const token = await openSession(db, member.id, { now: t0 });
    const at = (minutes: number) => new Date(t0.getTime() + minutes * 60_000);
    expect(signedInRecently((await sessionOf(db, token, at(5)))!, at(5))).toBe(true);
    expect(signedInRecently((await sessionOf(db, token, at(6)))!, at(6))).toBe(false);
    await reauthenticate(db, token, at(6));
    expect(signedInRecently((await sessionOf(db, token, at(10)))!, at(10))).toBe(true);
    await close();
  });
});
