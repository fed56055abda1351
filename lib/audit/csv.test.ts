import { describe, expect, it } from "vitest";
import type { AuditRow } from "./audit";
import { auditCsv } from "./csv";

const row = (over: Partial<AuditRow>): AuditRow => ({
  id: 1,
  occurredAt: new Date("2026-05-01T09:00:00Z"),
  actorKind: "staff",
  actorId: "st_1",
  actorLabel: "ana@shop.example",
  action: "refund.created",
  targetKind: "checkout",
  targetId: "co_1",
  outcome: "succeeded",
  detail: { amount: "5.00" },
  clientAddress: "203.0.113.9",
  ...over,
});

describe("audit CSV", () => {
  it("is one header and one line per row, quoting what needs it", () => {
    const csv = auditCsv([row({}), row({ actorLabel: 'Ana "A", Finance' })]);
    expect(csv.split("\r\n")).toEqual([
      "time,actor_kind,actor,action,target_kind,target,outcome,detail,client_address",
      '2026-05-01T09:00:00.000Z,staff,ana@shop.example,refund.created,checkout,co_1,succeeded,"{""amount"":""5.00""}",203.0.113.9',
      '2026-05-01T09:00:00.000Z,staff,"Ana ""A"", Finance",refund.created,checkout,co_1,succeeded,"{""amount"":""5.00""}",203.0.113.9',
      "",
    ]);
  });

  it("never hands a spreadsheet a formula", () => {
    const csv = auditCsv([row({ actorLabel: '=HYPERLINK("http://evil.example")', detail: null, clientAddress: "-1" })]);
    expect(csv).toContain(`"'=HYPERLINK(""http://evil.example"")"`);
    expect(csv).toContain(",'-1\r\n");
  });
});
