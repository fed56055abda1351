import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listAudit } from "../audit/audit";
import type { Db } from "../db";
import { openTestDb, testDbKinds } from "../db/testing";
import { StaffError, inviteStaff, listStaff, setDisabled, type StaffCall } from "./accounts";
import {
  addPasskey,
  authenticationOptions,
  authenticationResponse,
  checkPasskey,
  listPasskeys,
  registrationOptions,
  registrationResponse,
  relyingParty,
  removePasskey,
} from "./passkeys";
import { TestAuthenticator } from "./test-authenticator";
import { resetSecondFactor } from "./two-step";

const rp = relyingParty("https://pay.shop.example/");

describe.each(testDbKinds())("passkeys (%s)", (kind) => {
  let db: Db;
  let close: () => Promise<void>;
  let call: StaffCall & { rp: typeof rp };
  beforeAll(async () => {
    ({ db, close } = await openTestDb(kind));
    call = { db, rp, actor: { kind: "staff", id: "st_root", label: "root@shop.example" } };
  });
  afterAll(() => close());

  const person = async (email: string) => (await inviteStaff(call, { email, role: "finance" })).member;
  const codeOf = (p: Promise<unknown>) =>
    p.then(
      () => "ok",
      (e: unknown) => (e instanceof StaffError ? e.code : String(e)),
    );
  /** A person with a passkey on `device`. */
  async function withPasskey(email: string, device = new TestAuthenticator(rp.origin)) {
    const member = await person(email);
    await addPasskey(call, member, device.create(await registrationOptions(db, rp, member)), "Laptop");
    return { member, device };
  }
  const signIn = async (device: TestAuthenticator, over: { staffId?: string; sandbox?: boolean } = {}) => {
    const purpose = over.staffId ? "second_factor" : "sign_in";
    const options = await authenticationOptions(db, rp, purpose, over.staffId);
    return checkPasskey(db, rp, { purpose, response: device.get(options), sandbox: false, ...over });
  };

  it("a passkey added signs in without a password and counts as two-step sign-in; the audit names it", async () => {
    const { member, device } = await withPasskey("pia-passkey@shop.example");
    expect(await listPasskeys(db, member.id)).toEqual([expect.objectContaining({ name: "Laptop", lastUsedAt: null })]);
    expect((await listStaff(db)).find((p) => p.id === member.id)?.twoStep).toBe(true);
    // Only the public key is stored.
    expect(JSON.stringify(await db.execute("select * from staff_passkeys"))).not.toContain("PRIVATE");

    const signedIn = { staffId: member.id, email: "pia-passkey@shop.example", passkey: "Laptop" };
    expect(await signIn(device)).toEqual(signedIn);
    expect(await signIn(device, { staffId: member.id })).toEqual(signedIn);
    expect((await listPasskeys(db, member.id))[0]?.lastUsedAt).toBeInstanceOf(Date);
    expect((await listAudit(db, { action: "staff.passkey_added" }))[0]).toMatchObject({
      outcome: "succeeded",
      detail: { email: "pia-passkey@shop.example", name: "Laptop" },
    });
  });

  it("each challenge works once, for its purpose and its person, and a cloned key's old count is refused", async () => {
    const { member, device } = await withPasskey("quin-passkey@shop.example");
    const other = await person("rafe-passkey@shop.example");

    const options = await authenticationOptions(db, rp, "sign_in");
    const answer = device.get(options);
    expect(await checkPasskey(db, rp, { purpose: "sign_in", response: answer, sandbox: false })).toBeDefined();
    // The same answer again (a replay): its challenge is used.
    expect(await checkPasskey(db, rp, { purpose: "sign_in", response: answer, sandbox: false })).toBeUndefined();

    // A challenge given for signing in does not serve as someone's second step, nor the reverse.
    const forSignIn = device.get(await authenticationOptions(db, rp, "sign_in"));
    const asSecond = { purpose: "second_factor", response: forSignIn, staffId: member.id, sandbox: false } as const;
    expect(await checkPasskey(db, rp, asSecond)).toBeUndefined();
    // Another person's second step does not take this person's passkey.
    const theirs = device.get(await authenticationOptions(db, rp, "second_factor", other.id));
    expect(
      await checkPasskey(db, rp, { purpose: "second_factor", response: theirs, staffId: other.id, sandbox: false }),
    ).toBeUndefined();

    // A challenge older than two minutes is refused.
    const old = await authenticationOptions(db, rp, "sign_in", undefined, new Date(Date.now() - 3 * 60_000));
    expect(
      await checkPasskey(db, rp, { purpose: "sign_in", response: device.get(old), sandbox: false }),
    ).toBeUndefined();

    // A copy of the key whose count is behind the one we saw last.
    device.counter = 0;
    expect(await signIn(device)).toBeUndefined();
  });

  it("refuses a passkey made for another site, one that did not check the person, and a disabled person's", async () => {
    const member = await person("sam-passkey@shop.example");
    const phishing = new TestAuthenticator("https://pay.shop.example.evil.test");
    expect(
      await codeOf(addPasskey(call, member, phishing.create(await registrationOptions(db, rp, member)), "Phone")),
    ).toBe("passkey_refused");
    const presenceOnly = new TestAuthenticator(rp.origin, false);
    expect(
      await codeOf(addPasskey(call, member, presenceOnly.create(await registrationOptions(db, rp, member)), "Key")),
    ).toBe("passkey_refused");
    expect(await listPasskeys(db, member.id)).toEqual([]);

    const { member: tia, device } = await withPasskey("tia-passkey@shop.example");
    await setDisabled(call, tia.id, true);
    expect(await signIn(device)).toBeUndefined();
  });

  it("removing a passkey, or an admin's reset of two-step sign-in, ends what it opened", async () => {
    const { member, device } = await withPasskey("uma-passkey@shop.example");
    const [key] = await listPasskeys(db, member.id);
    await removePasskey(call, member, key!.id);
    expect(await signIn(device)).toBeUndefined();
    expect(await codeOf(removePasskey(call, member, key!.id))).toBe("not_found");

    const { member: vic, device: vicDevice } = await withPasskey("vic-passkey@shop.example");
    await resetSecondFactor(call, vic.id);
    expect(await listPasskeys(db, vic.id)).toEqual([]);
    expect(await signIn(vicDevice)).toBeUndefined();
    expect((await listStaff(db)).find((p) => p.id === vic.id)?.twoStep).toBe(false);
  });

  it("the browser's answers are parsed: a field that is not base64url, or missing, is refused by name", () => {
    const device = new TestAuthenticator(rp.origin);
    const good = device.get({ challenge: "abc", rpId: rp.id });
    expect(authenticationResponse.safeParse(good).success).toBe(true);
    const bad = authenticationResponse.safeParse({ ...good, response: { ...good.response, signature: "not b64!" } });
    expect(bad.error?.issues[0]?.path).toEqual(["response", "signature"]);
    expect(
      registrationResponse.safeParse({ ...good, response: {} }).error?.issues.map((i) => i.path.join(".")),
    ).toEqual(["response.clientDataJSON", "response.attestationObject"]);
  });
});
