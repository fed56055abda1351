import { beforeAll, describe, expect, it } from "vitest";
import { testDbKinds } from "@/lib/db/testing";
import { watchedRoutes } from "../documented-codes";
import { freshAppFor } from "../test-env";

/** GET and POST /api/payment-links as a merchant's backend calls them, with keys made in the back office. */
describe.each(testDbKinds())("/api/payment-links (%s)", (kind) => {
  let links: typeof import("./route");
  const watched = watchedRoutes();
  freshAppFor(kind);
  beforeAll(async () => {
    links = watched.watch("/api/payment-links", await import("./route"));
    // Opening and migrating the database is start-up work, not part of any one request.
    await (await import("@/lib/checkout/app-context")).appContext();
  });

  const none = { params: Promise.resolve({}) };
  const link = { title: "Piano lesson", currency: "EUR", amount: "25.00", referencePrefix: "LESSON" };
  const keyCall = async () => {
    const { db } = await (await import("@/lib/checkout/app-context")).appContext();
    return { db, actor: { kind: "staff", id: "st_admin", label: "admin@shop.example" } as const, live: false };
  };
  const create = (secret: string, idempotencyKey: string) =>
    links.POST(
      new Request("http://localhost:3000/api/payment-links", {
        method: "POST",
        headers: {
          Authorization: `Bearer ${secret}`,
          "Content-Type": "application/json",
          "Idempotency-Key": idempotencyKey,
        },
        body: JSON.stringify(link),
      }),
      none,
    );
  const list = (query = "") =>
    links.GET(
      new Request(`http://localhost:3000/api/payment-links${query}`, {
        headers: { Authorization: "Bearer dev-merchant-key" },
      }),
      none,
    );

  it("a retry after the API key was rolled is the same link, replayed: the key's owner is the merchant, not the key", async () => {
    const { createApiKey, rollApiKey } = await import("@/lib/api-keys/keys");
    const call = await keyCall();
    const a = await createApiKey(call, { name: "Shop", scopes: ["payment_links:write"] });
    const first = await create(a.secret, "roll-retry-1");
    expect(first.status).toBe(201);
    const b = await rollApiKey(call, a.id, 0);
    const retried = await create(b.secret, "roll-retry-1");
    expect([retried.status, retried.headers.get("idempotent-replayed")]).toEqual([201, "true"]);
    expect((await retried.json()).id).toBe((await first.json()).id);
  });

  it("pages the links, 200 a page, saying whether another page follows", async () => {
    const { appContext } = await import("@/lib/checkout/app-context");
    const { createPaymentLink } = await import("@/lib/payment-links/links");
    const ctx = await appContext();
    const before = ((await (await list()).json()) as { items: unknown[] }).items.length;
    for (let i = before; i < 201; i++)
      await createPaymentLink({ ...link, title: `Lesson ${i}` }, ctx, "staff:test", {});
    const first = await (await list()).json();
    expect([first.items.length, first.page, first.hasMore]).toEqual([200, 1, true]);
    const second = await (await list("?page=2")).json();
    expect([second.items.length, second.page, second.hasMore]).toEqual([1, 2, false]);
    const ids = [...first.items, ...second.items].map((l: { id: string }) => l.id);
    expect(new Set(ids).size).toBe(201);
    const bad = await list("?page=0");
    expect([bad.status, (await bad.json()).errors[0].path]).toEqual([400, "page"]);
  });

  it('answered no refusal the OpenAPI document does not list for its route (README "Error codes")', async () => {
    expect(await watched.undocumentedCodes()).toEqual([]);
  });
});
