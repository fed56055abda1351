import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { freshAppEnv } from "@/app/api/test-env";
import { createTestPostgresDatabase, testDbKinds } from "../db/testing";

/** The back-office list's filters as staff send them to GET /api/backoffice/checkouts. */
describe.each(testDbKinds())("back-office list filters over the API (%s)", (kind) => {
  let list: typeof import("@/app/api/backoffice/checkouts/route").GET;
  let cookie = "";
  let drop = async () => {};

  beforeAll(async () => {
    if (kind === "postgres") {
      const db = await createTestPostgresDatabase();
      drop = db.drop;
      freshAppEnv({ databaseUrl: db.url });
    } else {
      freshAppEnv();
    }
    list = (await import("@/app/api/backoffice/checkouts/route")).GET;
    const { db } = await (await import("@/lib/checkout/app-context")).appContext();
    const { openSession } = await import("@/lib/http/staff-session");
    cookie = `bo_session=${await openSession(db, "dev-backoffice")}`;
  });
  afterAll(async () => {
    vi.unstubAllEnvs();
    const holder = globalThis as { __checkoutDb?: Promise<{ close(): Promise<void> }> };
    await (await holder.__checkoutDb)?.close();
    delete holder.__checkoutDb;
    await drop();
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
