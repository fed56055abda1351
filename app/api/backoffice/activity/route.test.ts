import { beforeAll, describe, expect, it } from "vitest";
import { freshAppFor, staffCookie } from "@/app/api/test-env";
import { testDbKinds } from "@/lib/db/testing";

/** The Activity page's CSV export as an admin's browser (or a hand-made address) asks for it. */
describe.each(testDbKinds())("GET /api/backoffice/activity (%s)", (kind) => {
  let exportCsv: typeof import("./route").GET;
  let cookie = "";
  freshAppFor(kind);
  beforeAll(async () => {
    exportCsv = (await import("./route")).GET;
    cookie = await staffCookie();
  });

  const get = (query: string) =>
    exportCsv(new Request(`http://localhost:3000/api/backoffice/activity?${query}`, { headers: { cookie } }), {
      params: Promise.resolve({}),
    });

  it("exports with the page's filters", async () => {
    const res = await get("from=2026-01-01&to=2026-12-31");
    expect([res.status, res.headers.get("content-type")]).toEqual([200, "text/csv; charset=utf-8"]);
  });

  it.each([
    ["actor=st_x", "actor"],
    ["from=2026-01-01&from=2026-02-01", "from"],
  ])("refuses %s with 400 naming the field, rather than exporting everything", async (query, field) => {
    const res = await get(query);
    const body = (await res.json()) as { code: string; errors: { path: string }[] };
    expect([res.status, body.code, body.errors.map((e) => e.path)]).toEqual([400, "invalid_request", [field]]);
  });
});
