import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../db";
import { openTestDb, testDbKinds } from "../db/testing";
import { listAudit, recordAudit } from "./audit";

describe.each(testDbKinds())("audit trail (%s)", (kind) => {
  let db: Db;
  let close: () => Promise<void>;
  beforeAll(async () => ({ db, close } = await openTestDb(kind)));
  afterAll(() => close());

  it("keeps every row as written: the database refuses an update, a delete and a truncate", async () => {
    await recordAudit(db, {
      actor: { kind: "anonymous" },
      action: "staff.sign_in",
      outcome: "failed",
      detail: { reason: "wrong_password", email: "ana@shop.example" },
      clientAddress: "198.51.100.7",
    });
    for (const statement of [
      "update audit_events set outcome = 'succeeded'",
      "delete from audit_events",
      "truncate audit_events",
    ])
      await expect(db.execute(statement), statement).rejects.toMatchObject({
        cause: { message: expect.stringMatching(/append-only/) },
      });
    const [row] = await listAudit(db);
    expect(row).toMatchObject({ action: "staff.sign_in", outcome: "failed", detail: { reason: "wrong_password" } });
  });

  it("filters by person, action and time, newest first", async () => {
    const at = (h: number) => new Date(Date.UTC(2026, 4, 1, h));
    const ana = { kind: "staff", id: "st_ana", label: "ana@shop.example" } as const;
    const ben = { kind: "staff", id: "st_ben", label: "ben@shop.example" } as const;
    await recordAudit(db, { actor: ana, action: "refund.created", outcome: "succeeded", at: at(9) });
    await recordAudit(db, { actor: ben, action: "checkout.cancelled", outcome: "succeeded", at: at(10) });
    await recordAudit(db, { actor: ana, action: "checkout.cancelled", outcome: "succeeded", at: at(11) });
    expect((await listAudit(db, { actorId: "st_ana" })).map((r) => r.action)).toEqual([
      "checkout.cancelled",
      "refund.created",
    ]);
    expect((await listAudit(db, { action: "checkout.cancelled" })).map((r) => r.actorId)).toEqual(["st_ana", "st_ben"]);
    expect((await listAudit(db, { since: at(10), before: at(11) })).map((r) => r.actorId)).toEqual(["st_ben"]);
  });
});
