import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../db";
import { openTestDb } from "../db/testing";
import { inviteStaff, listStaff } from "./accounts";
import { settleStaff } from "./start-up";

describe("staff at start-up", () => {
  let db: Db;
  let close: () => Promise<void>;
  // One database for both: the demo admin the first seeds is not staff of the deployment's own.
  beforeAll(async () => ({ db, close } = await openTestDb("pglite")));
  afterAll(() => close());

  it("sandbox mode seeds the demo admin once, however many instances start, and says nothing", async () => {
    const opts = { sandbox: true, legacyBackofficePassword: false };
    expect(await Promise.all([settleStaff(db, opts), settleStaff(db, opts)])).toEqual([undefined, undefined]);
    expect((await listStaff(db)).map((p) => [p.email, p.role, p.demo, p.hasPassword])).toEqual([
      ["admin@shop.example", "admin", true, true],
    ]);
  });

  it("a deployment with no staff of its own is told how to make the first admin, and that BACKOFFICE_PASSWORD is gone", async () => {
    const line = await settleStaff(db, { sandbox: false, legacyBackofficePassword: true });
    expect(line).toMatch(/npm run staff -- add --email .* --role admin/);
    expect(line).toMatch(/BACKOFFICE_PASSWORD is no longer used/);
    expect(await settleStaff(db, { sandbox: false, legacyBackofficePassword: false })).not.toMatch(/BACKOFFICE/);
    await inviteStaff({ db, actor: { kind: "system", label: "test" } }, { email: "me@shop.example", role: "admin" });
    expect(await settleStaff(db, { sandbox: false, legacyBackofficePassword: true })).toBeUndefined();
  });
});
