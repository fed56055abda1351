import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signNotification } from "../checkout/notifications";
import type { Db } from "../db";
import { openTestDb, testDbKinds } from "../db/testing";
import { ApiKeyError } from "./keys";
import { listNotifySecrets, makeNotifySecret, signingSecrets } from "./notify-secrets";

const keys = [{ id: "k1", key: Buffer.alloc(32, 5) }];
const actor = { kind: "staff", id: "st_admin", label: "admin@shop.example" } as const;

/** What a merchant does: any v1= that matches one of its secrets. */
function verifies(header: string, body: string, secret: string): boolean {
  const parts = header.split(",");
  const t = parts.find((p) => p.startsWith("t="))!.slice(2);
  const expected = createHmac("sha256", secret).update(`${t}.${body}`).digest("hex");
  return parts.some((p) => p === `v1=${expected}`);
}

describe.each(testDbKinds())("notification signing secrets (%s)", (kind) => {
  let db: Db;
  let close: () => Promise<void>;
  beforeAll(async () => ({ db, close } = await openTestDb(kind)));
  afterAll(() => close());

  it("signs with the settings' secret and every secret made here; a roll's old one signs through its overlap only", async () => {
    const t0 = new Date("2026-12-06T09:00:00Z");
    const first = await makeNotifySecret({ db, actor, keys, now: t0 });
    expect(first.secret).toMatch(/^whsec_/);
    // Sealed: the database holds no secret a copy of it could sign with.
    expect(JSON.stringify(await db.execute("select * from notify_secrets"))).not.toContain(first.secret.slice(6));
    expect(await signingSecrets(db, keys, "from-settings", t0)).toEqual(["from-settings", first.secret]);

    const second = await makeNotifySecret({ db, actor, keys, now: t0 }, { id: first.id, overlapMs: 3600_000 });
    const during = await signingSecrets(db, keys, undefined, new Date(t0.getTime() + 3599_000));
    expect(during.sort()).toEqual([first.secret, second.secret].sort());
    const header = signNotification(during, "1796547600000", '{"id":"ntf_1"}');
    expect(header.match(/v1=/g)).toHaveLength(2);
    expect(verifies(header, '{"id":"ntf_1"}', first.secret)).toBe(true);
    expect(verifies(header, '{"id":"ntf_1"}', second.secret)).toBe(true);
    expect(verifies(header, '{"id":"ntf_2"}', second.secret)).toBe(false);
    expect(await signingSecrets(db, keys, undefined, new Date(t0.getTime() + 3600_000))).toEqual([second.secret]);

    await expect(makeNotifySecret({ db, actor, keys, now: t0 }, { id: first.id, overlapMs: 0 })).rejects.toBeInstanceOf(
      ApiKeyError,
    );
    expect((await listNotifySecrets(db)).map((s) => s.prefix)).toEqual(
      expect.arrayContaining([first.secret.slice(0, 12), second.secret.slice(0, 12)]),
    );
  });
});
