import { describe, expect, it } from "vitest";
import { bankRows, dailyCounts, daysSince, yAxis, type Stats } from "./chart-data";

const now = new Date("2026-03-03T15:00:00Z");
const stats = (byDay: Stats["byDay"], byBank: Stats["byBank"] = []): Stats => ({
  since: "2026-03-01T09:00:00.000Z",
  byDay,
  byBank,
});

describe("the dashboard's numbers", () => {
  it("every UTC day of the period is there, empty ones too", () => {
    expect(daysSince("2026-02-27T23:00:00Z", now)).toEqual([
      "2026-02-27",
      "2026-02-28",
      "2026-03-01",
      "2026-03-02",
      "2026-03-03",
    ]);
  });

  it("counts checkouts per day and status, and says it in a sentence", () => {
    const d = dailyCounts(
      stats([
        { day: "2026-03-01", status: "paid", count: 3 },
        { day: "2026-03-01", status: "failed", count: 1 },
        { day: "2026-03-03", status: "paid", count: 2 },
        { day: "2026-02-01", status: "paid", count: 9 }, // outside the period: ignored
      ]),
      now,
    );
    expect(d.days).toEqual(["2026-03-01", "2026-03-02", "2026-03-03"]);
    expect(d.perDay.get("2026-03-01")).toMatchObject({ paid: 3, failed: 1, open: 0 });
    expect(d.activeDays).toEqual(["2026-03-01", "2026-03-03"]);
    expect(d.total).toBe(6);
    expect(d.summary).toBe("6 checkouts in the last 30 days: 5 paid, 1 failed.");
    expect(dailyCounts(stats([]), now).summary).toBe("No checkouts in the last 30 days.");
  });

  it("draws the y axis in round steps that reach the highest day", () => {
    expect(yAxis(0)).toEqual({ yMax: 1, ticks: [0, 1] });
    expect(yAxis(7)).toEqual({ yMax: 8, ticks: [0, 2, 4, 6, 8] });
    expect(yAxis(23)).toEqual({ yMax: 25, ticks: [0, 5, 10, 15, 20, 25] });
  });

  it("groups attempts by bank, most used first, the provider's own bank choice as one row", () => {
    const rows = bankRows(
      stats(
        [],
        [
          { bankId: "SEB_LT", status: "completed", count: 2 },
          { bankId: "SEB_LT", status: "failed", count: 1 },
          { bankId: "SWED_LT", status: "completed", count: 5 },
          { bankId: null, status: "started", count: 1 },
        ],
      ),
      { SWED_LT: "Swedbank (LT)" },
    );
    expect(rows.map((r) => [r.label, r.completed, r.failed, r.inProgress, r.total])).toEqual([
      ["Swedbank (LT)", 5, 0, 0, 5],
      ["SEB_LT", 2, 1, 0, 3],
      ["Not chosen on our page", 0, 0, 1, 1],
    ]);
  });
});
