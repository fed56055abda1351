import { beforeAll, describe, expect, it } from "vitest";
import { freshAppFor, staffCookie } from "@/app/api/test-env";
import { testDbKinds } from "../db/testing";

/** The back-office list's filters as staff send them to GET /api/backoffice/checkouts. */
describe.each(testDbKinds())("back-office list filters over the API (%s)", (kind) => {
  let list: typeof import("@/app/api/backoffice/checkouts/route").GET;
  let cookie = "";
  freshAppFor(kind);
  beforeAll(async () => {
    list = (await import("@/app/api/backoffice/checkouts/route")).GET;
    cookie = await staffCookie();
  });

  const get = (query: string) =>
    list(new Request(`http://localhost:3000/api/backoffice/checkouts?${query}`, { headers: { cookie } }), {
      params: Promise.resolve({}),
    });

  it.each([
    ["q=%00", "q"],
    ["q=order%001", "q"],
    ["from=0000-01-01", "from"],
    ["to=9999-12-31", "to"],
    ["from=1999-12-31", "from"],
    ["to=3000-01-01", "to"],
    ["tab=refunds", "tab"],
    ["status=paid&status=failed", "status"],
  ])("refuses %s with 400 naming the field", async (query, field) => {
    const res = await get(query);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { code: string; errors: { path: string; message: string }[] };
    expect(body.code).toBe("invalid_request");
    expect(body.errors.map((e) => e.path)).toEqual([field]);
  });

  it("lists with the widest dates it takes", async () => {
    const res = await get("from=2000-01-01&to=2999-12-31&q=order");
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ items: [], page: 1 });
  });
});
