import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { listAudit } from "../audit/audit";
import type { Db } from "../db";
import { openTestDb, testDbKinds } from "../db/testing";
import {
  DEMO_ADMIN,
  INVITATION_TTL_MS,
  changeRole,
  checkPassword,
  inviteStaff,
  linkHolder,
  resetPasswordLink,
  setDisabled,
  setPasswordFromLink,
  settleDemoAdmin,
  StaffError,
  type StaffCall,
} from "./accounts";
import * as passwords from "./passwords";

const PASSWORD = "correct horse battery staple";

describe.each(testDbKinds())("staff accounts (%s)", (kind) => {
  let db: Db;
  let close: () => Promise<void>;
  let call: StaffCall;
  beforeAll(async () => {
    ({ db, close } = await openTestDb(kind));
    call = { db, actor: { kind: "staff", id: "st_root", label: "root@shop.example" }, clientAddress: "203.0.113.9" };
  });
  afterAll(() => close());

  const codeOf = (p: Promise<unknown>) =>
    p.then(
      () => "ok",
      (err: unknown) => (err instanceof StaffError ? err.code : String(err)),
    );

  it("an invited person sets a password from the link once, then signs in with it", async () => {
    const { member, token } = await inviteStaff(call, { email: " Dana@Shop.example ", role: "support" });
    expect(member).toMatchObject({ email: "dana@shop.example", role: "support", hasPassword: false });
    expect(await linkHolder(db, token)).toEqual({ ok: true, email: "dana@shop.example" });
    expect((await checkPassword(db, { email: "dana@shop.example", password: PASSWORD, sandbox: false })).ok).toBe(
      false,
    );
    await setPasswordFromLink(db, { token, password: PASSWORD });
    const signedIn = await checkPassword(db, { email: "DANA@shop.example", password: PASSWORD, sandbox: false });
    expect(signedIn).toMatchObject({ ok: true, member: { id: member.id, role: "support" } });
    expect(await codeOf(setPasswordFromLink(db, { token, password: "another long passphrase" }))).toBe("link_used");
  });

  it("a link expires after 24 hours, and an admin's new link kills the one before", async () => {
    const start = new Date("2026-03-01T10:00:00Z");
    const { token } = await inviteStaff({ ...call, now: start }, { email: "eve@shop.example", role: "viewer" });
    const late = new Date(start.getTime() + INVITATION_TTL_MS + 1);
    expect(await linkHolder(db, token, late)).toMatchObject({ ok: false, error: { code: "link_expired" } });
    expect(await codeOf(setPasswordFromLink(db, { token, password: PASSWORD }, late))).toBe("link_expired");
    const { member } = await inviteStaff(call, { email: "fay@shop.example", role: "viewer" }).catch(() => {
      throw new Error("unexpected");
    });
    const second = await resetPasswordLink(call, member.id);
    expect(await codeOf(setPasswordFromLink(db, { token: "x".repeat(43), password: PASSWORD }))).toBe("link_unknown");
    expect(await codeOf(setPasswordFromLink(db, { token: second, password: "short" }))).toBe("weak_password");
    expect(await codeOf(setPasswordFromLink(db, { token: second, password: "password1234" }))).toBe("weak_password");
    expect(await linkHolder(db, second)).toMatchObject({ ok: true });
  });

  it("a link that cannot set a password is refused before any password is hashed", async () => {
    const start = new Date("2026-03-02T10:00:00Z");
    const { token } = await inviteStaff({ ...call, now: start }, { email: "gil@shop.example", role: "viewer" });
    const hashing = vi.spyOn(passwords, "hashPassword");
    try {
      const late = new Date(start.getTime() + INVITATION_TTL_MS + 1);
      expect(await codeOf(setPasswordFromLink(db, { token: "y".repeat(43), password: PASSWORD }))).toBe("link_unknown");
      expect(await codeOf(setPasswordFromLink(db, { token, password: PASSWORD }, late))).toBe("link_expired");
      expect(hashing).not.toHaveBeenCalled();
      // A dead link is said before the password's rules: a better password would not help.
      expect(await codeOf(setPasswordFromLink(db, { token: "y".repeat(43), password: "short" }))).toBe("link_unknown");
      await setPasswordFromLink(db, { token, password: PASSWORD }, start);
      expect(hashing).toHaveBeenCalledTimes(1);
    } finally {
      hashing.mockRestore();
    }
  });

  it("refuses a second account for the same address, however it is typed", async () => {
    expect(await codeOf(inviteStaff(call, { email: "DANA@shop.example", role: "viewer" }))).toBe("email_taken");
    expect(await codeOf(inviteStaff(call, { email: "not an address", role: "viewer" }))).toBe("invalid_email");
    expect(await codeOf(inviteStaff(call, { email: "gus@shop.example", role: "owner" }))).toBe("invalid_role");
  });

  it("an unknown address and a wrong password are refused alike, each after a full verification", async () => {
    const times: Record<string, number> = {};
    for (const email of ["nobody@shop.example", "dana@shop.example"]) {
      const started = performance.now();
      const result = await checkPassword(db, { email, password: "wrong password here", sandbox: false });
      times[email] = performance.now() - started;
      expect(result.ok).toBe(false);
    }
    // Both spent an argon2 verification (tens of ms), not one a database read alone.
    expect(Math.min(...Object.values(times))).toBeGreaterThan(10);
  });

  it("a disabled person cannot sign in, and an admin can enable them again", async () => {
    const { member, token } = await inviteStaff(call, { email: "hal@shop.example", role: "viewer" });
    await setPasswordFromLink(db, { token, password: PASSWORD });
    await setDisabled(call, member.id, true);
    expect(await checkPassword(db, { email: "hal@shop.example", password: PASSWORD, sandbox: false })).toMatchObject({
      ok: false,
      reason: "disabled",
    });
    await setDisabled(call, member.id, false);
    expect((await checkPassword(db, { email: "hal@shop.example", password: PASSWORD, sandbox: false })).ok).toBe(true);
  });

  it("the last admin can be neither disabled nor demoted; with two, one can go", async () => {
    const { member: ida } = await inviteStaff(call, { email: "ida@shop.example", role: "admin" });
    expect(await codeOf(setDisabled(call, ida.id, true))).toBe("last_admin");
    expect(await codeOf(changeRole(call, ida.id, "finance"))).toBe("last_admin");
    const { member: jo } = await inviteStaff(call, { email: "jo@shop.example", role: "admin" });
    // Both at once: one of them wins, the other is refused, and an admin is left.
    const results = await Promise.all([
      codeOf(changeRole(call, ida.id, "viewer")),
      codeOf(changeRole(call, jo.id, "viewer")),
    ]);
    expect(results.sort()).toEqual(["last_admin", "ok"]);
  });

  it("the sandbox's demo admin signs in only in sandbox mode, and is disabled outside it", async () => {
    await settleDemoAdmin(db, true);
    await settleDemoAdmin(db, true); // every instance's start-up: still one
    const demo = { email: DEMO_ADMIN.email, password: DEMO_ADMIN.password };
    expect((await checkPassword(db, { ...demo, sandbox: true })).ok).toBe(true);
    expect(await checkPassword(db, { ...demo, sandbox: false })).toMatchObject({ ok: false, reason: "demo_account" });
    await settleDemoAdmin(db, false);
    expect(await checkPassword(db, { ...demo, sandbox: true })).toMatchObject({ ok: false, reason: "disabled" });
  });

  it("writes one audit row per change, naming who, what, whom and from where", async () => {
    const before = (await listAudit(db, { actorId: "st_root" })).length;
    const { member } = await inviteStaff(call, { email: "kim@shop.example", role: "viewer" });
    await changeRole(call, member.id, "finance");
    await setDisabled(call, member.id, true);
    const rows = await listAudit(db, { targetId: member.id });
    expect(rows.map((r) => r.action)).toEqual(["staff.disabled", "staff.role_changed", "staff.invited"]);
    expect(rows[1]).toMatchObject({
      actorKind: "staff",
      actorId: "st_root",
      actorLabel: "root@shop.example",
      clientAddress: "203.0.113.9",
      outcome: "succeeded",
      detail: { email: "kim@shop.example", from: "viewer", to: "finance" },
    });
    expect((await listAudit(db, { actorId: "st_root" })).length).toBe(before + 3);
    // A refused change leaves no row.
    await changeRole(call, "st_missing", "viewer").catch(() => {});
    expect((await listAudit(db, { actorId: "st_root" })).length).toBe(before + 3);
  });
});
