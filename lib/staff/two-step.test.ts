import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listAudit } from "../audit/audit";
import type { Db } from "../db";
import { openTestDb, testDbKinds } from "../db/testing";
import { StaffError, inviteStaff, listStaff, type StaffCall } from "./accounts";
import { RECENT_SIGN_IN_MS, openSession, sessionOf } from "./sessions";
import { stepOf, totpCode } from "./totp";
import {
  checkSecondFactor,
  confirmEnrolment,
  enrolmentSecret,
  hasAuthenticatorApp,
  recoveryCodesLeft,
  resetSecondFactor,
  secondFactorRequired,
} from "./two-step";

const keys = [{ id: "k1", key: Buffer.alloc(32, 3) }];

describe.each(testDbKinds())("two-step sign-in (%s)", (kind) => {
  let db: Db;
  let close: () => Promise<void>;
  let call: StaffCall & { keys: typeof keys };
  beforeAll(async () => {
    ({ db, close } = await openTestDb(kind));
    call = { db, keys, actor: { kind: "staff", id: "st_root", label: "root@shop.example" } };
  });
  afterAll(() => close());

  const person = async (email: string) => (await inviteStaff(call, { email, role: "finance" })).member;
  // The person as their session has them: signed in at `at`.
  const signedIn = <T extends object>(member: T, at = new Date()) => ({ ...member, authenticatedAt: at });
  const codeOf = (p: Promise<unknown>) =>
    p.then(
      () => "ok",
      (e: unknown) => (e instanceof StaffError ? e.code : String(e)),
    );

  it("enrols with a code from the secret shown, then takes each code once and each recovery code once", async () => {
    const ana = await person("ana-2fa@shop.example");
    const first = await enrolmentSecret(db, signedIn(ana), keys);
    // The same secret until confirmed, so a reload does not break a scan made before it.
    expect((await enrolmentSecret(db, signedIn(ana), keys))?.secret).toBe(first!.secret);
    expect(first!.uri).toContain(encodeURIComponent("ana-2fa@shop.example"));
    // Stored sealed, never as the base32 the app was given.
    expect(JSON.stringify(await db.execute("select totp_secret from staff"))).not.toContain(first!.secret);

    const t0 = new Date("2026-12-06T10:00:00Z");
    expect(await codeOf(confirmEnrolment({ ...call, now: t0 }, signedIn(ana, t0), "000000"))).toBe("wrong_code");
    const codes = await confirmEnrolment({ ...call, now: t0 }, signedIn(ana, t0), totpCode(first!.secret, stepOf(t0)));
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    expect(await hasAuthenticatorApp(db, ana.id)).toBe(true);
    expect(await enrolmentSecret(db, signedIn(ana), keys)).toBeUndefined();

    // The code used to enrol is spent; the next step's works once.
    expect(await checkSecondFactor(db, ana.id, totpCode(first!.secret, stepOf(t0)), keys, t0)).toBeUndefined();
    const t1 = new Date(t0.getTime() + 30_000);
    const next = totpCode(first!.secret, stepOf(t1));
    const both = await Promise.all([
      checkSecondFactor(db, ana.id, next, keys, t1),
      checkSecondFactor(db, ana.id, next, keys, t1),
    ]);
    expect(both.sort()).toEqual(["totp", undefined]);

    expect(await checkSecondFactor(db, ana.id, codes[0]!.toUpperCase(), keys)).toBe("recovery_code");
    expect(await checkSecondFactor(db, ana.id, codes[0]!, keys)).toBeUndefined();
    expect(await recoveryCodesLeft(db, ana.id)).toBe(9);
    expect((await listStaff(db)).find((p) => p.id === ana.id)?.twoStep).toBe(true);
  });

  it("an admin's reset turns it off, ends the person's sessions, and voids the recovery codes", async () => {
    const ben = await person("ben-2fa@shop.example");
    const { secret } = (await enrolmentSecret(db, signedIn(ben), keys))!;
    const now = new Date();
    const codes = await confirmEnrolment({ ...call, now }, signedIn(ben, now), totpCode(secret, stepOf(now)));
    const session = await openSession(db, ben.id);
    await resetSecondFactor(call, ben.id);
    expect(await sessionOf(db, session)).toBeUndefined();
    expect(await hasAuthenticatorApp(db, ben.id)).toBe(false);
    expect(await checkSecondFactor(db, ben.id, codes[1]!, keys)).toBeUndefined();
    // A new secret to enrol with, not the old one.
    expect((await enrolmentSecret(db, signedIn(ben), keys))?.secret).not.toBe(secret);
    expect((await listAudit(db, { targetId: ben.id })).map((r) => r.action).slice(0, 2)).toEqual([
      "staff.second_factor_reset",
      "staff.second_factor_enrolled",
    ]);
  });

  it("shows the secret and turns the app on only for a recent sign-in, as adding a passkey needs", async () => {
    const cy = await person("cy-2fa@shop.example");
    const now = new Date();
    const token = await openSession(db, cy.id, { now: new Date(now.getTime() - RECENT_SIGN_IN_MS - 60_000) });
    const stale = (await sessionOf(db, token, now))!;
    expect(await codeOf(enrolmentSecret(db, stale, keys, now))).toBe("sign_in_not_recent");
    const { secret } = (await enrolmentSecret(db, signedIn(stale, now), keys, now))!;
    // A secret seen before (another tab) does not turn the app on for a session not recent.
    const code = totpCode(secret, stepOf(now));
    expect(await codeOf(confirmEnrolment({ ...call, now }, stale, code))).toBe("sign_in_not_recent");
    expect(await hasAuthenticatorApp(db, cy.id)).toBe(false);
    expect(await confirmEnrolment({ ...call, now }, signedIn(stale, now), code)).toHaveLength(10);
  });

  it("is required for the roles listed, never for the sandbox's demo admin", () => {
    const roles = ["finance", "admin"] as const;
    expect(secondFactorRequired({ role: "finance", demo: false }, roles)).toBe(true);
    expect(secondFactorRequired({ role: "support", demo: false }, roles)).toBe(false);
    expect(secondFactorRequired({ role: "admin", demo: true }, roles)).toBe(false);
    expect(secondFactorRequired({ role: "admin", demo: false }, [])).toBe(false);
  });
});
