import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listAudit } from "../audit/audit";
import type { Db } from "../db";
import { openTestDb, testDbKinds } from "../db/testing";
import { ApiKeyError, LEGACY_CALLER, apiCallerOf, createApiKey, listApiKeys, revokeApiKey, rollApiKey } from "./keys";

describe.each(testDbKinds())("API keys (%s)", (kind) => {
  let db: Db;
  let close: () => Promise<void>;
  const actor = { kind: "staff", id: "st_admin", label: "admin@shop.example" } as const;
  beforeAll(async () => ({ db, close } = await openTestDb(kind)));
  afterAll(() => close());
  const call = (now?: Date) => ({ db, actor, live: false, now });
  const codeOf = (p: Promise<unknown>) =>
    p.then(
      () => "ok",
      (e: unknown) => (e instanceof ApiKeyError ? e.code : String(e)),
    );

  it("makes a key shown once: only its hash and prefix are kept, and it names its scopes", async () => {
    const { id, secret } = await createApiKey(call(), { name: "Shop backend", scopes: ["checkouts:read"] });
    expect(secret).toMatch(/^bck_test_[A-Za-z0-9_-]{43}$/);
    expect(JSON.stringify(await db.execute("select * from api_keys"))).not.toContain(secret.slice(16));
    const [listed] = await listApiKeys(db);
    expect(listed).toMatchObject({ id, name: "Shop backend", prefix: secret.slice(0, 16), scopes: ["checkouts:read"] });
    expect(await apiCallerOf(db, secret, "legacy-key")).toEqual({
      id,
      name: "Shop backend",
      scopes: ["checkouts:read"],
    });
    expect((await listApiKeys(db)).find((k) => k.id === id)?.lastUsedAt).not.toBeNull();
    expect(await apiCallerOf(db, `${secret.slice(0, -1)}x`, "legacy-key")).toBeUndefined();
    expect(await codeOf(createApiKey(call(), { name: "x", scopes: [] }))).toBe("invalid_scopes");
    expect(await codeOf(createApiKey(call(), { name: "x", scopes: ["checkouts:admin"] }))).toBe("invalid_scopes");
    expect(await codeOf(createApiKey(call(), { name: " ", scopes: ["checkouts:read"] }))).toBe("invalid_name");
  });

  it("MERCHANT_API_KEY from the settings is one more key with every scope", async () => {
    expect(await apiCallerOf(db, "legacy-key-of-24-characters", "legacy-key-of-24-characters")).toBe(LEGACY_CALLER);
    expect(await apiCallerOf(db, "legacy-key-of-24-characters", undefined)).toBeUndefined();
  });

  it("a rolled key keeps working through its overlap, then stops; the new one works at once", async () => {
    const t0 = new Date("2026-12-06T09:00:00Z");
    const old = await createApiKey(call(t0), { name: "Rolled", scopes: ["checkouts:write", "refunds:write"] });
    const fresh = await rollApiKey(call(t0), old.id, 24 * 3600_000);
    const at = (h: number) => new Date(t0.getTime() + h * 3600_000);
    expect((await apiCallerOf(db, old.secret, undefined, at(23)))?.id).toBe(old.id);
    expect(await apiCallerOf(db, old.secret, undefined, at(24))).toBeUndefined();
    expect(await apiCallerOf(db, fresh.secret, undefined, at(25))).toMatchObject({
      name: "Rolled",
      scopes: ["checkouts:write", "refunds:write"],
    });
    // A key rolled once is not rolled again; the overlap is at most 7 days.
    expect(await codeOf(rollApiKey(call(t0), old.id, 0))).toBe("not_active");
    expect(await codeOf(rollApiKey(call(t0), fresh.id, 8 * 24 * 3600_000))).toBe("invalid_overlap");
  });

  it("a revoked key stops at once, and each change is in the audit trail", async () => {
    const { id, secret } = await createApiKey(call(), { name: "Leaked", scopes: ["checkouts:read"] });
    await revokeApiKey(call(), id);
    expect(await apiCallerOf(db, secret, undefined)).toBeUndefined();
    expect(await codeOf(revokeApiKey(call(), id))).toBe("not_found");
    expect((await listAudit(db, { targetId: id })).map((r) => r.action)).toEqual([
      "api_key.revoked",
      "api_key.created",
    ]);
  });
});
