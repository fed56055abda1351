import { beforeAll, describe, expect, inject, it } from "vitest";
import { testDbKinds } from "@/lib/db/testing";
import { webhookSignature } from "@/lib/pis/webhook";
import { watchedRoutes } from "./documented-codes";
import { freshAppFor } from "./test-env";

/**
 * The route handlers as the merchant's backend and the payer's browser call them: real handlers,
 * real database (PGlite and Postgres), the real sandbox provider. Only HTTP itself is skipped.
 */
const KEY = "dev-merchant-key";
const none = { params: Promise.resolve({}) };
const withId = (checkoutId: string) => ({ params: Promise.resolve({ checkoutId }) });
const req = (path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) =>
  new Request(`http://localhost:3000${path}`, {
    method: init.method ?? "GET",
    headers: { "Content-Type": "application/json", ...init.headers },
    body: init.body === undefined ? undefined : typeof init.body === "string" ? init.body : JSON.stringify(init.body),
  });
const auth = { Authorization: `Bearer ${KEY}` };
const order = {
  amount: "12.50",
  currency: "EUR",
  description: "Order 1",
  reference: "api-1",
  returnUrl: "https://shop.example/done",
};

describe.each(testDbKinds())("API routes (%s)", (kind) => {
  let routes: {
    checkouts: typeof import("@/app/api/checkouts/route");
    checkout: typeof import("@/app/api/checkouts/[checkoutId]/route");
    payments: typeof import("@/app/api/checkouts/[checkoutId]/payments/route");
    status: typeof import("@/app/api/checkouts/[checkoutId]/status/route");
    banks: typeof import("@/app/api/banks/route");
    webhooks: typeof import("@/app/api/webhooks/pis/route");
    abandon: typeof import("@/app/api/checkouts/[checkoutId]/payments/abandon/route");
    ready: typeof import("@/app/api/health/ready/route");
    savedAccount: typeof import("@/app/api/checkouts/[checkoutId]/saved-account/route");
    linkReturn: typeof import("@/app/checkout/[checkoutId]/saved-account/route");
    payPost: typeof import("@/app/checkout/[checkoutId]/pay/route");
    forgetPost: typeof import("@/app/checkout/[checkoutId]/saved-account/forget/route");
    abandonPost: typeof import("@/app/checkout/[checkoutId]/abandon/route");
    cancel: typeof import("@/app/api/checkouts/[checkoutId]/cancel/route");
  };
  // Each database kind gets a fresh process-wide app context, as a fresh server would.
  freshAppFor(kind);
  const watched = watchedRoutes();

  beforeAll(async () => {
    routes = {
      checkouts: watched.watch("/api/checkouts", await import("@/app/api/checkouts/route")),
      checkout: watched.watch("/api/checkouts/{id}", await import("@/app/api/checkouts/[checkoutId]/route")),
      payments: watched.watch(
        "/api/checkouts/{id}/payments",
        await import("@/app/api/checkouts/[checkoutId]/payments/route"),
      ),
      status: watched.watch(
        "/api/checkouts/{id}/status",
        await import("@/app/api/checkouts/[checkoutId]/status/route"),
      ),
      banks: watched.watch("/api/banks", await import("@/app/api/banks/route")),
      webhooks: watched.watch("/api/webhooks/pis", await import("@/app/api/webhooks/pis/route")),
      abandon: watched.watch(
        "/api/checkouts/{id}/payments/abandon",
        await import("@/app/api/checkouts/[checkoutId]/payments/abandon/route"),
      ),
      ready: watched.watch("/api/health/ready", await import("@/app/api/health/ready/route")),
      savedAccount: watched.watch(
        "/api/checkouts/{id}/saved-account",
        await import("@/app/api/checkouts/[checkoutId]/saved-account/route"),
      ),
      linkReturn: watched.watch(
        "/checkout/{id}/saved-account",
        await import("@/app/checkout/[checkoutId]/saved-account/route"),
      ),
      payPost: watched.watch("/checkout/{id}/pay", await import("@/app/checkout/[checkoutId]/pay/route")),
      forgetPost: watched.watch(
        "/checkout/{id}/saved-account/forget",
        await import("@/app/checkout/[checkoutId]/saved-account/forget/route"),
      ),
      abandonPost: watched.watch("/checkout/{id}/abandon", await import("@/app/checkout/[checkoutId]/abandon/route")),
      cancel: watched.watch(
        "/api/checkouts/{id}/cancel",
        await import("@/app/api/checkouts/[checkoutId]/cancel/route"),
      ),
    };
    // Opening and migrating the database is start-up work, not part of any one request.
    await (await import("@/lib/checkout/app-context")).appContext();
  });

  const create = async (body: unknown = order, headers: Record<string, string> = auth) =>
    routes.checkouts.POST(req("/api/checkouts", { method: "POST", body, headers }), none);

  it("refuses to create a checkout without the merchant key, or with a wrong one, saying which scheme it takes", async () => {
    for (const res of [await create(order, {}), await create(order, { Authorization: "Bearer guess" })]) {
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toBe("Bearer");
    }
  });

  it("creates a checkout and answers its payer URL", async () => {
    const res = await create();
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ status: "open", url: `http://localhost:3000/checkout/${body.id}` });
  });

  it("names every bad field of a checkout, with 400 problem+json and nothing written", async () => {
    const res = await create({ ...order, amount: 12.5, currency: "XYZ", returnUrl: "ftp://x" });
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    const body = await res.json();
    expect(body.errors.map((e: { path: string }) => e.path).sort()).toEqual(["amount", "currency", "returnUrl"]);
  });

  it("refuses a NUL character in any text the merchant sends with 400 naming the field, not 500 (the database cannot store it)", async () => {
    const nul = { description: "Order\u00001", reference: "nul\u0000", returnUrl: "https://shop.example/\u0000" };
    for (const [field, value] of Object.entries(nul)) {
      const res = await create({ ...order, [field]: value });
      expect(res.status, field).toBe(400);
      expect((await res.json()).errors, field).toEqual([expect.objectContaining({ path: field })]);
    }
  });

  it("refuses a field it does not know, naming it: a misspelt notifyUrl or expiry is not silently dropped", async () => {
    const res = await create({ ...order, notify_url: "https://shop.example/hook", expires_in_minutes: 5 });
    expect(res.status).toBe(400);
    expect((await res.json()).errors).toEqual([
      expect.objectContaining({ path: "notify_url" }),
      expect.objectContaining({ path: "expires_in_minutes" }),
    ]);
  });

  it("says a return URL is too long when it is, not that it is no URL", async () => {
    const res = await create({ ...order, returnUrl: `https://shop.example/${"a".repeat(2100)}` });
    expect(res.status).toBe(400);
    expect((await res.json()).errors).toEqual([{ path: "returnUrl", message: expect.stringMatching(/at most 2000/) }]);
  });

  it("answers a malformed JSON body with 400, not 500", async () => {
    const res = await routes.checkouts.POST(req("/api/checkouts", { method: "POST", body: "{", headers: auth }), none);
    expect(res.status).toBe(400);
  });

  it("honours Idempotency-Key: the same request twice makes one checkout", async () => {
    const headers = { ...auth, "Idempotency-Key": `idem-${kind}` };
    const first = await create(order, headers);
    const again = await create(order, headers);
    const a = await first.json();
    const b = await again.json();
    expect(b.id).toBe(a.id);
    // The replay says it is one (Stripe's header), the first answer does not.
    expect([first.headers.get("idempotent-replayed"), again.headers.get("idempotent-replayed")]).toEqual([
      null,
      "true",
    ]);
    // The same amount written another way is the same request, as for refunds.
    expect((await (await create({ ...order, amount: "12.5" }, headers)).json()).id).toBe(a.id);
    expect((await create({ ...order, amount: "1.00" }, headers)).status).toBe(422);
  });

  it("shows a checkout to the merchant only with the key, and 404 for an unknown one", async () => {
    const { id } = await (await create()).json();
    expect((await routes.checkout.GET(req(`/api/checkouts/${id}`), withId(id))).status).toBe(401);
    const ok = await routes.checkout.GET(req(`/api/checkouts/${id}`, { headers: auth }), withId(id));
    expect(await ok.json()).toMatchObject({ id, amount: "12.50", attempts: [] });
    expect(
      (await routes.checkout.GET(req("/api/checkouts/co_nope", { headers: auth }), withId("co_nope"))).status,
    ).toBe(404);
  });

  it("lists the merchant's checkouts, newest first, by reference, status and day, with the key only", async () => {
    const reference = `list-${kind}-${Date.now()}`;
    const first = await (await create({ ...order, reference: `${reference}-a` })).json();
    // Created in another millisecond, so that "newest first" has one answer.
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await (await create({ ...order, reference: `${reference}-b` })).json();
    const list = (query: string, headers: Record<string, string> = auth) =>
      routes.checkouts.GET(req(`/api/checkouts?${query}`, { headers }), none);
    expect((await list(`q=${reference}`, {})).status).toBe(401);
    const found = await (await list(`q=${reference}&status=open`)).json();
    expect(found).toMatchObject({ page: 1, hasMore: false });
    expect(found.items.map((c: { id: string }) => c.id)).toEqual([second.id, first.id]);
    expect(found.items[0]).toMatchObject({ reference: `${reference}-b`, amount: "12.50", status: "open" });
    expect((await (await list(`q=${reference}&status=paid`)).json()).items).toEqual([]);
    const bad = await list("from=yesterday");
    expect([bad.status, (await bad.json()).errors[0].path]).toEqual([400, "from"]);
  });

  it("refuses a list filter it does not know, or one given twice, naming it: an unfiltered list is not the answer", async () => {
    const list = (query: string) => routes.checkouts.GET(req(`/api/checkouts?${query}`, { headers: auth }), none);
    for (const [query, field] of [
      ["reference=order-7", "reference"],
      ["status=paid&status=open", "status"],
      ["q=a&q=b&page=2", "q"],
    ]) {
      const res = await list(query!);
      const body = await res.json();
      expect([res.status, body.code, body.errors[0].path]).toEqual([400, "invalid_request", field]);
    }
  });

  it("lets the merchant cancel a checkout, with the key only; the payer can then no longer pay it", async () => {
    const { id } = await (await create()).json();
    const cancel = (headers: Record<string, string>) =>
      routes.cancel.POST(req(`/api/checkouts/${id}/cancel`, { method: "POST", headers }), withId(id));
    expect((await cancel({})).status).toBe(401);
    const ok = await cancel(auth);
    expect([ok.status, (await ok.json()).status]).toEqual([200, "cancelled"]);
    const pay = await routes.payments.POST(
      req(`/api/checkouts/${id}/payments`, {
        method: "POST",
        body: { method: "bank", bankId: "SEB_LT_SAND", termsAccepted: true, attemptKey: "cancelled-1" },
      }),
      withId(id),
    );
    expect([pay.status, (await pay.json()).code]).toEqual([409, "checkout_cancelled"]);
  });

  it("takes a key made in the back office for what its scopes allow: 403 insufficient_scope beyond them, 401 once revoked", async () => {
    const { appContext } = await import("@/lib/checkout/app-context");
    const { createApiKey, revokeApiKey } = await import("@/lib/api-keys/keys");
    const { db } = await appContext();
    const actor = { kind: "staff", id: "st_admin", label: "admin@shop.example" } as const;
    const reader = await createApiKey({ db, actor, live: false }, { name: "Reader", scopes: ["checkouts:read"] });
    const as = { Authorization: `Bearer ${reader.secret}` };
    const { id } = await (await create()).json();
    expect((await routes.checkout.GET(req(`/api/checkouts/${id}`, { headers: as }), withId(id))).status).toBe(200);
    const refused = await create(order, as);
    expect([refused.status, (await refused.json()).code]).toEqual([403, "insufficient_scope"]);
    const cancel = await routes.cancel.POST(
      req(`/api/checkouts/${id}/cancel`, { method: "POST", headers: as }),
      withId(id),
    );
    expect(cancel.status).toBe(403);
    await revokeApiKey({ db, actor, live: false }, reader.id);
    expect((await routes.checkout.GET(req(`/api/checkouts/${id}`, { headers: as }), withId(id))).status).toBe(401);
  });

  it("refuses a payment body that tries to set the amount or lacks the attempt key, naming the field", async () => {
    const { id } = await (await create()).json();
    const res = await routes.payments.POST(
      req(`/api/checkouts/${id}/payments`, {
        method: "POST",
        body: { method: "bank", termsAccepted: true, amount: "0.01" },
      }),
      withId(id),
    );
    expect(res.status).toBe(400);
    expect((await res.json()).errors).toEqual([expect.objectContaining({ path: "attemptKey" })]);
  });

  it("starts a payment and reports it in progress, the amount untouched by the browser", async () => {
    const { id } = await (await create()).json();
    const body = {
      method: "bank",
      bankId: "SEB_LT_SAND",
      termsAccepted: true,
      attemptKey: "api-key-0001",
      amount: "0.01",
    };
    const res = await routes.payments.POST(req(`/api/checkouts/${id}/payments`, { method: "POST", body }), withId(id));
    expect(res.status).toBe(200);
    expect((await res.json()).confirmLink).toMatch(/\/login\//);
    const status = await (await routes.status.GET(req(`/api/checkouts/${id}/status`), withId(id))).json();
    expect(status).toMatchObject({ status: "processing", amount: "12.50", final: false });
  });

  const postForm =
    (route: { POST: (r: Request, c: never) => Promise<Response> }, path: string, id: string) =>
    (fields: Record<string, string>, headers: Record<string, string> = {}) =>
      route.POST(
        req(path, {
          method: "POST",
          body: new URLSearchParams(fields).toString(),
          headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
        }),
        withId(id) as never,
      );

  it("takes the payment form the browser posts by itself: on to the bank, or back to the form saying what is missing", async () => {
    const { id } = await (await create()).json();
    const post = postForm(routes.payPost, `/checkout/${id}/pay`, id);
    const form = { choice: "here", country: "LT", attemptKey: "form-key-0001", lang: "lt" };

    // Back to the form saying what is missing, with the payer's choices to start from again.
    const missing = await post({ ...form, bankId: "SEB_LT_SAND" });
    expect(missing.status).toBe(303);
    expect(missing.headers.get("location")).toBe(
      `/checkout/${id}?lang=lt&refused=terms&choice=here&country=LT&bank=SEB_LT_SAND`,
    );
    // A form our page did not make is refused as the API refuses it, naming the field.
    const forged = await post({ ...form, bankId: "SEB_LT_SAND", terms: "on", attemptKey: "x" });
    expect(forged.status).toBe(400);
    expect((await forged.json()).errors).toEqual([expect.objectContaining({ path: "attemptKey" })]);

    const paid = await post({ ...form, bankId: "SEB_LT_SAND", terms: "on" });
    expect(paid.status).toBe(303);
    const link = paid.headers.get("location");
    expect(link).toMatch(/\/login\//);
    // Pressed twice, the same attempt: the same bank page, one payment.
    expect((await post({ ...form, bankId: "SEB_LT_SAND", terms: "on" })).headers.get("location")).toBe(link);
    const status = await (await routes.status.GET(req(`/api/checkouts/${id}/status`), withId(id))).json();
    expect(status).toMatchObject({ status: "processing", amount: "12.50" });
  });

  it("takes 'Choose another bank' as the browser posts it by itself: the form again, or the status once the bank has it", async () => {
    const { id } = await (await create()).json();
    const stop = postForm(routes.abandonPost, `/checkout/${id}/abandon`, id);
    const start = async (attemptKey: string) => {
      const res = await routes.payments.POST(
        req(`/api/checkouts/${id}/payments`, {
          method: "POST",
          body: { method: "bank", bankId: "SEB_LT_SAND", termsAccepted: true, attemptKey },
        }),
        withId(id),
      );
      return (await res.json()) as { confirmLink: string };
    };
    await start("abandon-key-0001");
    const stopped = await stop({ lang: "lt" });
    expect(stopped.status).toBe(303);
    expect(stopped.headers.get("location")).toBe(`/checkout/${id}?lang=lt&stopped=1`);
    const status = await (await routes.status.GET(req(`/api/checkouts/${id}/status`), withId(id))).json();
    expect(status).toMatchObject({ status: "open", attempt: { abandoned: true } });

    // The bank has taken the next one meanwhile: nothing to stop, the payer is shown its status.
    const { confirmLink } = await start("abandon-key-0002");
    const paymentId = new URL(confirmLink).pathname.split("/")[2];
    const atBank = async (bankStatus: string) => {
      const moved = await fetch(`${inject("sandboxUrl")}/_sandbox/payments/${paymentId}/status`, {
        method: "POST",
        // The unit run's sandbox keeps its control API behind the default secret (lib/sandbox/README.md).
        headers: { "Content-Type": "application/json", "X-Sandbox-Secret": "sandbox-control-secret" },
        body: JSON.stringify({ bankStatus }),
      });
      expect(moved.status).toBe(200);
    };
    await atBank("ACTC");
    expect((await stop({ lang: "lt" })).headers.get("location")).toBe(`/checkout/${id}/return`);
    // And once it has paid it (no webhook yet), the payer is shown that, not a refusal on the form.
    await atBank("ACSC");
    expect((await stop({ lang: "lt" })).headers.get("location")).toBe(`/checkout/${id}/return`);
    expect((await postForm(routes.abandonPost, "/checkout/co_nope/abandon", "co_nope")({})).status).toBe(404);
  });

  it("takes the saved account's buttons and 'Remember' as the browser posts them by itself", async () => {
    const form = { country: "LT", attemptKey: "form-key-0002", lang: "en" };
    // A shop customer nobody has saved an account for: one-click Pay has nothing to pay from.
    const named = (await (await create({ ...order, customerId: "customer-posted" })).json()) as { id: string };
    const post = postForm(routes.payPost, `/checkout/${named.id}/pay`, named.id);
    const noAccount = await post({ ...form, choice: "saved" });
    expect(noAccount.headers.get("location")).toBe(`/checkout/${named.id}?lang=en&refused=no_saved_account`);

    // "Remember" where saving is not offered (no customer): back without it, the bank kept.
    const anonymous = (await (await create()).json()) as { id: string };
    const refused = await postForm(
      routes.payPost,
      `/checkout/${anonymous.id}/pay`,
      anonymous.id,
    )({
      ...form,
      choice: "here",
      bankId: "SWEDBANK_LT_SAND",
      terms: "on",
      remember: "on",
    });
    expect(refused.headers.get("location")).toBe(
      `/checkout/${anonymous.id}?lang=en&refused=saving_unavailable&choice=here&country=LT&bank=SWEDBANK_LT_SAND`,
    );

    // "Remember" for a named customer: on to the provider's linking, with the browser's handle.
    const saving = await post({ ...form, choice: "here", bankId: "SWEDBANK_LT_SAND", terms: "on", remember: "on" });
    expect(saving.status).toBe(303);
    expect(new URL(saving.headers.get("location")!).origin).toBe(new URL(inject("sandboxUrl")).origin);
    const cookie = saving.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/^payer_handle=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax/);

    // "Forget this account": back to the form saying so.
    const forget = await postForm(
      routes.forgetPost,
      `/checkout/${named.id}/saved-account/forget`,
      named.id,
    )({ lang: "lv" }, { Cookie: cookie.split(";")[0]! });
    expect(forget.status).toBe(303);
    expect(forget.headers.get("location")).toBe(`/checkout/${named.id}?lang=lv&saved=forgotten`);
    expect((await postForm(routes.forgetPost, "/checkout/co_nope/saved-account/forget", "co_nope")({})).status).toBe(
      404,
    );
  });

  it("starts saving a bank account with an HttpOnly browser handle, and only for a named customer", async () => {
    const anonymous = (await (await create()).json()) as { id: string };
    const body = { bankId: "SWEDBANK_LT_SAND", termsAccepted: true };
    const refused = await routes.savedAccount.POST(
      req(`/api/checkouts/${anonymous.id}/saved-account`, { method: "POST", body }),
      withId(anonymous.id),
    );
    expect(refused.status).toBe(422);
    expect(await refused.json()).toMatchObject({ code: "saving_unavailable" });

    const named = (await (await create({ ...order, customerId: "customer-42" })).json()) as { id: string };
    const res = await routes.savedAccount.POST(
      req(`/api/checkouts/${named.id}/saved-account`, { method: "POST", body }),
      withId(named.id),
    );
    expect(res.status).toBe(200);
    const { authorizationLink } = (await res.json()) as { authorizationLink: string };
    expect(new URL(authorizationLink).origin).toBe(new URL(inject("sandboxUrl")).origin);
    const cookie = res.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/^payer_handle=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax/);

    // The provider's return with a made-up request id goes back to the checkout, saving nothing.
    const back = await routes.linkReturn.GET(
      req(`/checkout/${named.id}/saved-account?requestId=al_nope&code=x&status=success`),
      withId(named.id),
    );
    expect(back.status).toBe(303);
    expect(back.headers.get("location")).toMatch(new RegExp(`/checkout/${named.id}\\?saved=failed$`));
    // Forgetting without a handle forgets nothing, and says so.
    const forgot = await routes.savedAccount.DELETE(
      req(`/api/checkouts/${named.id}/saved-account`, { method: "DELETE" }),
      withId(named.id),
    );
    expect(await forgot.json()).toEqual({ forgotten: false });
  });

  it("refuses another site's form posting JSON as text/plain to the payer's routes: 415 or 403, no handle set, nothing started", async () => {
    const named = (await (await create({ ...order, customerId: "customer-csrf-api" })).json()) as { id: string };
    const body = JSON.stringify({ bankId: "SWEDBANK_LT_SAND", termsAccepted: true });
    const savingAt = (headers: Record<string, string>) =>
      routes.savedAccount.POST(
        req(`/api/checkouts/${named.id}/saved-account`, { method: "POST", body, headers }),
        withId(named.id),
      );
    // <form enctype="text/plain"> on evil.example, its one field's name and value making up valid JSON.
    const form = await savingAt({
      "Content-Type": "text/plain",
      Origin: "https://evil.example",
      "Sec-Fetch-Site": "cross-site",
    });
    expect([403, 415]).toContain(form.status);
    expect(form.headers.get("set-cookie")).toBeNull();
    // Each door is shut on its own: a body that is not JSON, and a request from another site.
    const plain = await savingAt({ "Content-Type": "text/plain" });
    expect(plain.status).toBe(415);
    expect(await plain.json()).toMatchObject({ code: "unsupported_media_type" });
    const crossSite: Record<string, string>[] = [
      { Origin: "https://evil.example" },
      { "Sec-Fetch-Site": "cross-site" },
      { "Sec-Fetch-Site": "same-site", Origin: "https://shop.localhost:3000" },
    ];
    for (const headers of crossSite) {
      const res = await savingAt(headers);
      expect([headers, res.status]).toEqual([headers, 403]);
      expect(await res.json()).toMatchObject({ code: "cross_site_action" });
      expect(res.headers.get("set-cookie")).toBeNull();
    }
    const pay = { method: "bank", bankId: "SWEDBANK_LT_SAND", termsAccepted: true, attemptKey: "csrf-api-1" };
    const payments = await routes.payments.POST(
      req(`/api/checkouts/${named.id}/payments`, {
        method: "POST",
        body: pay,
        headers: { Origin: "https://evil.example" },
      }),
      withId(named.id),
    );
    expect(payments.status).toBe(403);
    const forget = await routes.savedAccount.DELETE(
      req(`/api/checkouts/${named.id}/saved-account`, {
        method: "DELETE",
        headers: { "Sec-Fetch-Site": "cross-site" },
      }),
      withId(named.id),
    );
    expect(forget.status).toBe(403);
    const abandon = await routes.abandon.POST(
      req(`/api/checkouts/${named.id}/payments/abandon`, {
        method: "POST",
        headers: { Origin: "https://evil.example" },
      }),
      withId(named.id),
    );
    expect(abandon.status).toBe(403);
    // Nothing was started by any of them.
    expect(
      (await (await routes.checkout.GET(req(`/api/checkouts/${named.id}`, { headers: auth }), withId(named.id))).json())
        .attempts,
    ).toEqual([]);
    // The payer's own page (same origin) still gets through.
    const own = await savingAt({
      Host: "localhost:3000",
      Origin: "http://localhost:3000",
      "Sec-Fetch-Site": "same-origin",
    });
    expect(own.status).toBe(200);
  });

  it("still takes the merchant's JSON from a server (no Origin), and refuses it as text/plain with 415", async () => {
    expect((await create(order, { ...auth, "Content-Type": "application/json; charset=utf-8" })).status).toBe(200);
    const plain = await create(order, { ...auth, "Content-Type": "text/plain" });
    expect(plain.status).toBe(415);
    expect(await plain.json()).toMatchObject({ code: "unsupported_media_type" });
    const none = await routes.checkouts.POST(
      new Request("http://localhost:3000/api/checkouts", {
        method: "POST",
        body: new Blob([JSON.stringify(order)]),
        headers: auth,
      }),
      { params: Promise.resolve({}) },
    );
    expect(none.status).toBe(415);
  });

  it("answers an unknown checkout's status with 404", async () => {
    expect(
      (
        await routes.status.GET(
          req("/api/checkouts/co_missing_000000000000000/status"),
          withId("co_missing_000000000000000"),
        )
      ).status,
    ).toBe(404);
  });

  it("lists banks of a country, and names a bad country", async () => {
    const ok = await routes.banks.GET(req("/api/banks?country=EE"), none);
    expect((await ok.json()).banks.length).toBeGreaterThan(0);
    const bad = await routes.banks.GET(req("/api/banks?country=estonia"), none);
    expect(bad.status).toBe(400);
    expect((await bad.json()).errors[0].path).toBe("country");
    // A code the provider knows no country for (it answers 400 InvalidCountryCode) has no banks;
    // it is not the provider being down.
    const unknown = await routes.banks.GET(req("/api/banks?country=ZZ"), none);
    expect(unknown.status).toBe(200);
    expect(await unknown.json()).toEqual({ country: "ZZ", banks: [] });
  });

  it("lets browsers and CDNs keep the bank list: a strong ETag, 304 when it has not changed, s-maxage and stale-while-revalidate", async () => {
    const first = await routes.banks.GET(req("/api/banks?country=LT"), none);
    const etag = first.headers.get("etag");
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{16,}"$/);
    expect(first.headers.get("cache-control")).toBe("public, max-age=300, s-maxage=300, stale-while-revalidate=600");
    const again = await routes.banks.GET(req("/api/banks?country=LT", { headers: { "If-None-Match": etag! } }), none);
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    expect(again.headers.get("etag")).toBe(etag);
    const other = await routes.banks.GET(req("/api/banks?country=LV", { headers: { "If-None-Match": etag! } }), none);
    expect(other.status).toBe(200);
    expect(other.headers.get("etag")).not.toBe(etag);
  });

  it("refuses an unsigned webhook", async () => {
    const res = await routes.webhooks.POST(
      req("/api/webhooks/pis", {
        method: "POST",
        body: { id: "a".repeat(40), statusGroup: "completed", type: "PAYMENT" },
      }),
      none,
    );
    expect(res.status).toBe(401);
  });

  it("takes a signed webhook with 200 and no body, saying what it did in Webhook-Outcome; the same delivery again changes nothing", async () => {
    const { id } = await (await create({ ...order, reference: "api-webhook" })).json();
    const body = { method: "bank", bankId: "SEB_LT_SAND", termsAccepted: true, attemptKey: "api-webhook-0001" };
    const started = await routes.payments.POST(
      req(`/api/checkouts/${id}/payments`, { method: "POST", body }),
      withId(id),
    );
    const paymentId = new URL((await started.json()).confirmLink).pathname.split("/")[2]!;
    const delivery = JSON.stringify({ id: paymentId, bankStatus: "ACSC", statusGroup: "completed", type: "PAYMENT" });
    const deliver = () => {
      const timestamp = String(Date.now());
      const signature = webhookSignature(
        "sandbox-webhook-secret",
        "http://localhost:3000/api/webhooks/pis",
        timestamp,
        delivery,
      );
      return routes.webhooks.POST(
        req("/api/webhooks/pis", {
          method: "POST",
          body: delivery,
          headers: { "X-Kevin-Timestamp": timestamp, "X-Kevin-Signature": signature },
        }),
        none,
      );
    };
    const first = await deliver();
    expect([first.status, first.headers.get("webhook-outcome"), await first.text()]).toEqual([200, "applied", ""]);
    const status = await (await routes.status.GET(req(`/api/checkouts/${id}/status`), withId(id))).json();
    expect(status).toMatchObject({ status: "paid" });
    const again = await deliver();
    expect([again.status, again.headers.get("webhook-outcome"), await again.text()]).toEqual([200, "unchanged", ""]);
  });

  it("refuses a 10 MB body with 413 having read at most about 64 KB of it, on the merchant API, the payer API and the webhook route", async () => {
    const checkout = await (
      await routes.checkouts.POST(
        req("/api/checkouts", { method: "POST", body: { ...order, reference: "big-body" }, headers: auth }),
        none,
      )
    ).json();
    const calls: [string, (r: Request) => Promise<Response>][] = [
      ["/api/checkouts", (r) => routes.checkouts.POST(r, none)],
      [`/api/checkouts/${checkout.id}/payments`, (r) => routes.payments.POST(r, withId(checkout.id))],
      ["/api/webhooks/pis", (r) => routes.webhooks.POST(r, none)],
    ];
    for (const [path, call] of calls) {
      for (const declareLength of [true, false]) {
        let pulled = 0;
        const body = new ReadableStream<Uint8Array>({
          pull(controller) {
            if (pulled === 160) return controller.close();
            pulled++;
            controller.enqueue(new Uint8Array(64 * 1024).fill(0x20));
          },
        });
        const headers: Record<string, string> = { ...auth, "Content-Type": "application/json" };
        if (declareLength) headers["Content-Length"] = String(160 * 64 * 1024);
        const res = await call(
          new Request(`http://localhost:3000${path}`, { method: "POST", headers, body, duplex: "half" } as RequestInit),
        );
        expect([path, declareLength, res.status]).toEqual([path, declareLength, 413]);
        expect((await res.json()).code).toBe("body_too_large");
        expect(pulled).toBeLessThanOrEqual(3);
      }
    }
  });

  it("answers readiness for a load balancer: the database and the provider, and nothing more", async () => {
    const res = await routes.ready.GET(req("/api/health/ready"), none);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ready", database: "ok", provider: "ok" });
  });

  it("limits abandoning payments per address (anyone may call it)", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++) {
      const r = req("/api/checkouts/co_nothing/payments/abandon", {
        method: "POST",
        headers: { "x-checkout-peer": "198.51.100.4" },
      });
      statuses.push((await routes.abandon.POST(r, withId(`co_nothing${i}`))).status);
    }
    expect(statuses.slice(0, 60).every((s) => s !== 429)).toBe(true);
    expect(statuses[60]).toBe(429);
  });

  it("stores nothing of an unsigned or forged webhook, and refuses a flood of them from one address with 429", async () => {
    const { appContext } = await import("@/lib/checkout/app-context");
    const { webhookEvents } = await import("@/lib/db/schema");
    const { db } = await appContext();
    const stored = async () => (await db.select().from(webhookEvents)).length;
    const before = await stored();
    const forged = (ip: string) =>
      req("/api/webhooks/pis", {
        method: "POST",
        body: { id: "b".repeat(40), statusGroup: "completed", type: "PAYMENT" },
        headers: {
          "x-checkout-peer": ip,
          "X-Kevin-Signature": "0".repeat(64),
          "X-Kevin-Timestamp": String(Date.now()),
        },
      });
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) statuses.push((await routes.webhooks.POST(forged("203.0.113.7"), none)).status);
    expect(statuses.slice(0, 30).every((s) => s === 401)).toBe(true);
    expect(statuses[30]).toBe(429);
    // Another address is not held up by the first one's flood.
    expect((await routes.webhooks.POST(forged("203.0.113.8"), none)).status).toBe(401);
    expect(await stored()).toBe(before);
  });

  it('answered no refusal the OpenAPI document does not list for its route (README "Error codes")', async () => {
    expect(watched.count).toBeGreaterThan(100);
    expect(await watched.undocumentedCodes()).toEqual([]);
  });
});
