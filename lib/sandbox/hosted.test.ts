import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { countryFromAcceptLanguage } from "./pages";
import {
  control,
  createPayment,
  getJson,
  getPage,
  initiate,
  linkAccount,
  openLink,
  payAtBank,
  paymentBody,
  postForm,
  startAuth,
  startSandbox,
  type RunningSandbox,
} from "./test-helpers";

let s: RunningSandbox;

beforeAll(async () => {
  s = await startSandbox({ pendingUserMs: 60_000 });
});
afterAll(async () => {
  await s.sandbox.close();
});

const status = async (id: string) => (await getJson(`${s.api}/pis/payment/${id}/status`)).json;
const payment = async (id: string) => (await getJson(`${s.api}/pis/payment/${id}`)).json as Record<string, unknown>;

describe("hosted bank payment", () => {
  it("takes the payer from bank choice through login and account choice to approval and back", async () => {
    const { id, confirmLink } = await createPayment(s.api, { redirectUrl: "https://shop.example/return" });
    const flow = await openLink(confirmLink);
    expect(flow.stepUrl).toBe(`${s.baseUrl}/login/${id}/step`);
    expect(flow.cookie).toMatch(/^sandbox_link=[0-9a-f]{48}$/);

    const choose = await flow.page();
    expect(choose.status).toBe(200);
    expect(choose.headers.get("cache-control")).toBe("no-store");
    expect(choose.html).toContain('<html lang="en">');
    expect(choose.html).toContain("<h1>Choose your bank</h1>");
    expect(choose.html).toContain("Step 1 of 3");
    expect(choose.html).toContain("12.30 EUR");
    expect(choose.html).toContain("Demo Shop UAB");
    expect(choose.html).toContain('value="SWEDBANK_LT_SAND"');
    expect(choose.html).toContain('<img src="/logos/SWEDBANK_LT_SAND.png"');

    expect(await flow.post("bank", { bankId: "SEB_LT_SAND" })).toEqual({ status: 303, location: `/login/${id}/step` });
    const login = await flow.page();
    expect(login.html).toContain("<h1>Log in to SEB</h1>");
    expect(login.html).toContain("Step 2 of 3");
    expect(login.html).toMatch(/<label for="username">Username<\/label>/);
    expect(login.html).toMatch(/<label for="password">Password<\/label>/);
    expect(login.html).toContain("<kbd>test</kbd> / <kbd>1234</kbd>");
    expect(login.html).toContain("<kbd>pending</kbd> / <kbd>1234</kbd>");

    // Approving before logging in changes nothing.
    expect(await flow.post("approve")).toEqual({ status: 303, location: `/login/${id}/step` });
    expect(await status(id)).toEqual({ bankStatus: "STRD", group: "started" });

    expect(await flow.post("login", { username: "test", password: "wrong" })).toEqual({
      status: 303,
      location: `/login/${id}/step?error=credentials`,
    });
    const rejected = await flow.page("?error=credentials");
    expect(rejected.html).toMatch(/role="alert" id="login-error">Wrong username or password/);
    expect(rejected.html).toContain('aria-invalid="true"');

    expect(await flow.post("login", { username: "test", password: "1234" })).toEqual({
      status: 303,
      location: `/login/${id}/step`,
    });
    const confirm = await flow.page();
    expect(confirm.html).toContain("<h1>Confirm payment</h1>");
    expect(confirm.html).toContain("<legend>Pay from</legend>");
    const accounts = [...confirm.html.matchAll(/name="account" value="([0-9a-f]{32})"/g)].map((m) => m[1] ?? "");
    const ibans = [...confirm.html.matchAll(/<span class="iban">(LT\d{18})<\/span>/g)].map((m) => m[1]);
    expect(accounts).toHaveLength(2);
    expect(ibans).toHaveLength(2);
    expect(confirm.html).toMatch(/<button type="submit" class="primary">Approve<\/button>/);
    expect(confirm.html).toContain(">Reject (insufficient funds)</button>");
    expect(confirm.html).toContain(">Leave pending</button>");
    expect(confirm.html).toContain(">Cancel</button>");

    const approved = await flow.post("approve", { account: accounts[1] ?? "" });
    expect(approved.status).toBe(303);
    const back = new URL(approved.location);
    expect(back.origin + back.pathname).toBe("https://shop.example/return");
    expect(back.searchParams.get("paymentId")).toBe(id);
    expect(back.searchParams.get("statusGroup")).toBe("completed");

    expect(await status(id)).toEqual({ bankStatus: "ACSC", group: "completed" });
    expect(await payment(id)).toMatchObject({
      bankStatus: "ACSC",
      statusGroup: "completed",
      bankPaymentMethod: { bankId: "SEB_LT_SAND", debtorAccount: { iban: ibans[1], currencyCode: "EUR" } },
    });
  });

  it("never changes a finished payment: a second click or a late Cancel just goes back to the merchant", async () => {
    const { id, confirmLink } = await createPayment(s.api, { query: "?bankId=SWEDBANK_LT_SAND" });
    const { flow, answer } = await payAtBank(confirmLink);
    expect(await flow.post("approve")).toEqual(answer);
    expect(await flow.post("cancel")).toEqual(answer);
    expect(await status(id)).toEqual({ bankStatus: "ACSC", group: "completed" });
    const done = await flow.page();
    expect(done.html).toContain("<h1>Payment approved</h1>");
    expect(done.html).toContain(`href="https://shop.example/return?paymentId=${id}&#38;statusGroup=completed"`);
    expect(done.html).not.toContain(">Approve</button>");
  });

  it("starts at the bank login when the merchant chose the bank, inside the frame", async () => {
    const { confirmLink } = await createPayment(s.api, { query: "?bankId=LHV_EE_SAND" });
    const { html } = await (await openLink(confirmLink)).page();
    expect(html).toContain("<h1>Log in to LHV</h1>");
    expect(html).toContain("Step 1 of 2");
    expect(html).not.toContain('name="bankId"');
    expect(html).not.toContain("Choose another bank");
    expect(html).not.toContain('class="bankbar"');
  });

  it("redirectPreferred=true: the login stands for the bank's own site, outside the frame's steps", async () => {
    const { confirmLink } = await createPayment(s.api, { query: "?bankId=SWEDBANK_LT_SAND&redirectPreferred=true" });
    const flow = await openLink(confirmLink);
    const login = await flow.page();
    expect(login.html).toContain('class="bankbar" style="background:#b8491a"');
    expect(login.html).toContain("<strong>Swedbank</strong><span>test internet bank</span>");
    expect(login.html).not.toContain("Step 1");
    await flow.post("login", { username: "test", password: "1234" });
    expect((await flow.page()).html).toContain('class="bankbar"');
  });

  it("lets the payer go back to the bank list from the login when the frame chose nothing yet", async () => {
    const { id, confirmLink } = await createPayment(s.api);
    const flow = await openLink(confirmLink);
    await flow.post("bank", { bankId: "SEB_LT_SAND" });
    expect((await flow.page()).html).toContain("Choose another bank");
    await flow.post("change-bank");
    expect((await flow.page()).html).toContain("<h1>Choose your bank</h1>");
    expect(((await payment(id)).bankPaymentMethod as Record<string, unknown>).bankId).toBeUndefined();
  });

  it("asks again when Continue is pressed without a bank", async () => {
    const { id, confirmLink } = await createPayment(s.api);
    const flow = await openLink(confirmLink);
    expect(await flow.post("bank", {})).toEqual({ status: 303, location: `/login/${id}/step?error=bank` });
    expect((await flow.page("?error=bank")).html).toMatch(/role="alert" id="bank-error">Choose a bank/);
  });
});

describe("decisions at the bank", () => {
  it("Cancel on the confirm step: CANC / failed with code 21004, the merchant's query kept byte for byte", async () => {
    const { id, confirmLink } = await createPayment(s.api, {
      redirectUrl: "https://shop.example/return?order=7&sig=a%20b",
    });
    const { answer } = await payAtBank(confirmLink, "cancel");
    expect(answer.location).toBe(`https://shop.example/return?order=7&sig=a%20b&paymentId=${id}&statusGroup=failed`);
    expect(await status(id)).toEqual({ bankStatus: "CANC", group: "failed", error: { code: [21004] } });
  });

  it("Cancel before logging in: CANC / failed with code 21001", async () => {
    const { id, confirmLink } = await createPayment(s.api);
    const { location } = await (await openLink(confirmLink)).post("cancel");
    expect(new URL(location).searchParams.get("statusGroup")).toBe("failed");
    expect(await status(id)).toEqual({ bankStatus: "CANC", group: "failed", error: { code: [21001] } });
  });

  it("Reject (insufficient funds): RJCT / failed with code 20017, and the debtor account chosen", async () => {
    const { id, confirmLink } = await createPayment(s.api, { query: "?bankId=CITADELE_LV_SAND" });
    const { answer } = await payAtBank(confirmLink, "reject");
    expect(new URL(answer.location).searchParams.get("statusGroup")).toBe("failed");
    expect(await status(id)).toEqual({ bankStatus: "RJCT", group: "failed", error: { code: [20017] } });
    expect(await payment(id)).toMatchObject({
      bankPaymentMethod: { debtorAccount: { iban: expect.stringMatching(/^LV\d{2}PARX\d{13}$/) } },
    });
  });

  it("Leave pending: ACTC / pending, back to the merchant with statusGroup=pending, and it stays so", async () => {
    const { id, confirmLink } = await createPayment(s.api, { query: "?bankId=SEB_EE_SAND" });
    const { flow, answer } = await payAtBank(confirmLink, "pending");
    expect(new URL(answer.location).searchParams.get("statusGroup")).toBe("pending");
    expect(await status(id)).toEqual({ bankStatus: "ACTC", group: "pending" });
    expect((await flow.page()).html).toContain("<h1>Payment pending</h1>");
    await control(s).post("/clock", { advanceMs: 3_600_000 });
    expect(await status(id)).toEqual({ bankStatus: "ACTC", group: "pending" });
  });

  it("test user `pending`: the approval is ACSP / pending until its time passes, then ACSC / completed", async () => {
    const { id, confirmLink } = await createPayment(s.api, { query: "?bankId=SEB_LT_SAND" });
    const { answer } = await payAtBank(confirmLink, "approve", "pending");
    expect(new URL(answer.location).searchParams.get("statusGroup")).toBe("pending");
    expect(await status(id)).toEqual({ bankStatus: "ACSP", group: "pending" });
    await control(s).post("/clock", { advanceMs: 59_000 });
    expect(await status(id)).toEqual({ bankStatus: "ACSP", group: "pending" });
    await control(s).post("/clock", { advanceMs: 1_000 });
    expect(await status(id)).toEqual({ bankStatus: "ACSC", group: "completed" });
    const history = ((await control(s).get(`/payments/${id}`)).json as { history: { bankStatus: string }[] }).history;
    expect(history.map((h) => h.bankStatus)).toEqual(["STRD", "ACSP", "ACSC"]);
  });

  it("SANDBOX_PENDING_MS (pendingMs): every approval is pending first, then completes by itself", async () => {
    const other = await startSandbox({ pendingMs: 150 });
    try {
      const { id, confirmLink } = await createPayment(other.api, { query: "?bankId=SEB_LT_SAND" });
      await payAtBank(confirmLink);
      expect((await getJson(`${other.api}/pis/payment/${id}/status`)).json).toEqual({
        bankStatus: "ACSP",
        group: "pending",
      });
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect((await getJson(`${other.api}/pis/payment/${id}/status`)).json).toEqual({
        bankStatus: "ACSC",
        group: "completed",
      });
    } finally {
      await other.sandbox.close();
    }
  });
});

describe("single-use confirmLink", () => {
  it("a second visit says the link was used, while the flow's own steps keep working", async () => {
    const { id, confirmLink } = await createPayment(s.api);
    const flow = await openLink(confirmLink);
    await flow.post("bank", { bankId: "SEB_LT_SAND" });

    const stranger = await getPage(confirmLink);
    expect(stranger.status).toBe(410);
    expect(stranger.html).toContain("<h1>This link was already used</h1>");
    expect(stranger.html).not.toContain("Continue where you left off");

    // The payer's own browser (Back to the link) sees the same page, with a way back into the flow.
    const back = await getPage(confirmLink, { cookie: flow.cookie });
    expect(back.status).toBe(410);
    expect(back.html).toContain("<h1>This link was already used</h1>");
    expect(back.html).toContain(`<a href="/login/${id}/step">Continue where you left off</a>`);

    // A stranger can neither see nor drive the flow.
    expect((await getPage(`${s.baseUrl}/login/${id}/step`)).status).toBe(410);
    expect((await postForm(`${s.baseUrl}/login/${id}/cancel`)).status).toBe(410);
    expect(await status(id)).toEqual({ bankStatus: "STRD", group: "started" });

    expect((await flow.page()).html).toContain("<h1>Log in to SEB</h1>");
    await flow.post("login", { username: "test", password: "1234" });
    expect(new URL((await flow.post("approve")).location).searchParams.get("statusGroup")).toBe("completed");
  });

  it("a HEAD request (a link preview) does not use the link up", async () => {
    const { confirmLink } = await createPayment(s.api);
    expect((await fetch(confirmLink, { method: "HEAD", redirect: "manual" })).status).toBe(200);
    await openLink(confirmLink);
  });

  it("a finished payment's link says so, an expired one says it expired", async () => {
    const finished = await createPayment(s.api);
    await control(s).post(`/payments/${finished.id}/status`, { bankStatus: "ACSC" });
    const page = await getPage(finished.confirmLink);
    expect(page.status).toBe(410);
    expect(page.html).toContain("This payment is already finished");

    const expiring = await createPayment(s.api);
    await control(s).post("/clock", { advanceMs: 7 * 24 * 3600 * 1000 });
    const expired = await getPage(expiring.confirmLink);
    expect(expired.html).toContain("<h1>This link has expired</h1>");
    expect(await status(expiring.id)).toEqual({ bankStatus: "CANC", group: "failed", error: { code: [21100] } });
  });

  it("answers 404 pages for unknown payments and actions", async () => {
    const page = await getPage(`${s.baseUrl}/login/${"f".repeat(40)}`);
    expect(page.status).toBe(404);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(page.html).toContain("Payment not found");
    expect((await postForm(`${s.baseUrl}/login/${"f".repeat(40)}/approve`)).status).toBe(404);
    const { confirmLink } = await createPayment(s.api);
    expect((await (await openLink(confirmLink)).post("teleport")).status).toBe(404);
  });
});

describe("the mobile SDKs' frame URLs", () => {
  /** A page with its payment id or state taken out, to compare two flows. */
  const same = (html: string, id: string) => html.replaceAll(id, "{id}");

  it("/login/{paymentId}/{bankId}/preview opens the payment at that bank's login, as if chosen on the bank page", async () => {
    const chosen = await createPayment(s.api);
    const viaPage = await openLink(chosen.confirmLink);
    await viaPage.post("bank", { bankId: "SEB_LT_SAND" });
    const expected = (await viaPage.page()).html;
    expect(expected).toContain("<h1>Log in to SEB</h1>");

    const { id, confirmLink } = await createPayment(s.api);
    const flow = await openLink(`${s.baseUrl}/login/${id}/SEB_LT_SAND/preview`);
    expect(flow.location).toBe(`/login/${id}/step`);
    expect(flow.cookie).toMatch(/^sandbox_link=[0-9a-f]{48}$/);
    expect(same((await flow.page()).html, id)).toBe(same(expected, chosen.id));
    // It opens the payment's single-use link: the confirmLink (or the preview again) is used now.
    expect((await getPage(confirmLink)).status).toBe(410);
    expect((await getPage(`${s.baseUrl}/login/${id}/SEB_LT_SAND/preview`)).status).toBe(410);
    await flow.post("login", { username: "test", password: "1234" });
    expect(new URL((await flow.post("approve")).location).searchParams.get("statusGroup")).toBe("completed");
    expect(await payment(id)).toMatchObject({ bankPaymentMethod: { bankId: "SEB_LT_SAND" } });
  });

  it("an unknown bank, or one outside the payment's country, gets the bank page's answer to an unknown bank", async () => {
    const chosen = await createPayment(s.api, { query: "?countryCode=LV" });
    const viaPage = await openLink(chosen.confirmLink);
    expect(await viaPage.post("bank", { bankId: "NOPE_LV" })).toEqual({
      status: 303,
      location: `/login/${chosen.id}/step?error=bank`,
    });
    const expected = (await viaPage.page("?error=bank")).html;
    expect(expected).toContain('role="alert"');

    for (const bankId of ["NOPE_LV", "LHV_EE_SAND"]) {
      const { id } = await createPayment(s.api, { query: "?countryCode=LV" });
      const flow = await openLink(`${s.baseUrl}/login/${id}/${bankId}/preview`);
      expect(flow.location, bankId).toBe(`/login/${id}/step?error=bank`);
      expect(same((await getPage(flow.stepUrl, { cookie: flow.cookie })).html, id)).toBe(same(expected, chosen.id));
      expect(await status(id)).toEqual({ bankStatus: "STRD", group: "started" });
    }
  });

  it("a hybrid payment previewed with a bank is paid by bank", async () => {
    const { id } = await createPayment(s.api, { body: paymentBody({ cardPaymentMethod: {} }) });
    const flow = await openLink(`${s.baseUrl}/login/${id}/SWEDBANK_LT_SAND/preview`);
    expect((await flow.page()).html).toContain("<h1>Log in to Swedbank</h1>");
    expect(await status(id)).toEqual({ bankStatus: "STRD", group: "started" });
  });

  it("/login/{state}/{bankId}/preview opens an account link at that bank's login, refusing a bank as its page does", async () => {
    const { json } = await startAuth(s.api, "?scopes=payments");
    const state = String(json.state);
    const flow = await openLink(`${s.baseUrl}/login/${state}/SWEDBANK_LT_SAND/preview`);
    expect(flow.location).toBe(`/auth/${state}/step`);
    expect((await flow.page()).html).toContain("<h1>Log in to Swedbank</h1>");
    expect((await getPage(String(json.authorizationLink))).status).toBe(410);
    await flow.post("login", { username: "test", password: "1234" });
    expect((await flow.post("allow")).location).toContain("&status=success");

    // Revolut has no account linking: refused on the bank page, and in the preview the same way.
    const other = (await startAuth(s.api, "?scopes=payments")).json;
    const refused = await (await openLink(String(other.authorizationLink))).post("bank", { bankId: "REVOLUT_LT_SAND" });
    expect(refused.location).toBe(`/auth/${String(other.state)}/step?error=bank`);
    for (const bankId of ["REVOLUT_LT_SAND", "NOPE_LT"]) {
      const fresh = String((await startAuth(s.api, "?scopes=payments")).json.state);
      expect((await openLink(`${s.baseUrl}/login/${fresh}/${bankId}/preview`)).location, bankId).toBe(
        `/auth/${fresh}/step?error=bank`,
      );
    }
  });

  it("/payments/{paymentId}/processing opens a linked-account payment at its confirm step, like its confirmLink", async () => {
    const token = await linkAccount(s.api, "payments", "CITADELE_LV_SAND");
    const { json } = await initiate(s.api, { headers: { Authorization: `Bearer ${token.accessToken}` } });
    const id = String(json.id);
    const flow = await openLink(`${s.baseUrl}/payments/${id}/processing`);
    expect(flow.location).toBe(`/login/${id}/step`);
    const { html } = await flow.page();
    expect(html).toContain("<h1>Confirm payment</h1>");
    expect(html).toMatch(/You pay from your linked Citadele account LV\d{2}PARX\d{13}\./);
    expect((await getPage(String(json.confirmLink))).status).toBe(410);
    await flow.post("approve");
    expect(await status(id)).toEqual({ bankStatus: "ACSC", group: "completed" });
  });

  it("answers 404 pages for unknown payments or links and other paths", async () => {
    for (const path of [`/login/${"f".repeat(40)}/SEB_LT_SAND/preview`, `/payments/${"f".repeat(40)}/processing`]) {
      const page = await getPage(`${s.baseUrl}${path}`);
      expect(page.status, path).toBe(404);
      expect(page.html).toContain("Payment not found");
    }
    const { id } = await createPayment(s.api);
    for (const path of [`/payments/${id}`, `/payments/${id}/processing/x`, `/login/${id}/SEB_LT_SAND/other`])
      expect((await getPage(`${s.baseUrl}${path}`)).status, path).toBe(404);
    expect((await postForm(`${s.baseUrl}/payments/${id}/processing`)).status).toBe(404);
  });
});

describe("bank choice country", () => {
  const bankPage = async (opts: { query?: string; headers?: Record<string, string>; pageQuery?: string } = {}) => {
    const { confirmLink } = await createPayment(s.api, { query: opts.query ?? "" });
    return (await (await openLink(confirmLink, opts.headers)).page(opts.pageQuery ?? "")).html;
  };

  it("comes from Accept-Language, else LT, and the country select switches it", async () => {
    const latvian = await bankPage({ headers: { "Accept-Language": "lv-LV,lv;q=0.9,en;q=0.8" } });
    expect(latvian).toContain('value="CITADELE_LV_SAND"');
    expect(latvian).not.toContain('value="SWEDBANK_LT_SAND"');
    expect(latvian).toContain('<option value="LV" selected>Latvia</option>');
    expect(await bankPage({ headers: { "Accept-Language": "de-DE" } })).toContain('value="SIAULIU_LT_SAND"');
    expect(await bankPage({ pageQuery: "?country=EE" })).toContain('value="COOP_EE_SAND"');
  });

  it("comes from countryCode given at initiation before Accept-Language", async () => {
    const html = await bankPage({ query: "?countryCode=EE", headers: { "Accept-Language": "lv" } });
    expect(html).toContain('value="LHV_EE_SAND"');
    expect(html).toContain("Banks in Estonia");
  });

  it("shows an empty list for a valid country without test banks", async () => {
    const html = await bankPage({ query: "?countryCode=DE" });
    expect(html).toContain("There are no test banks in this country.");
    expect(html).toContain('<option value="DE" selected>DE</option>');
  });
});

describe("languages", () => {
  const expectations = {
    en: ["Choose your bank", "Log in to SEB", "Confirm payment", "Approve", "Everyday account"],
    lt: ["Pasirinkite banką", "Prisijungimas: SEB", "Patvirtinkite mokėjimą", "Patvirtinti", "Kasdienė sąskaita"],
    lv: ["Izvēlieties banku", "Pieslēgšanās: SEB", "Apstipriniet maksājumu", "Apstiprināt", "Ikdienas konts"],
    et: ["Valige oma pank", "Sisselogimine: SEB", "Kinnitage makse", "Kinnita", "Arvelduskonto"],
  };

  for (const [lang, [bankHeading, loginHeading, confirmHeading, approve, account]] of Object.entries(expectations)) {
    it(`speaks ${lang} on every step, with the html lang attribute set`, async () => {
      const { confirmLink } = await createPayment(s.api, { query: `?lang=${lang}` });
      expect(confirmLink).toContain(`?lang=${lang}`);
      const flow = await openLink(confirmLink);
      const bank = (await flow.page()).html;
      expect(bank).toContain(`<html lang="${lang}">`);
      expect(bank).toContain(`<h1>${bankHeading}</h1>`);
      await flow.post("bank", { bankId: "SEB_LT_SAND" });
      expect((await flow.page()).html).toContain(`<h1>${loginHeading}</h1>`);
      await flow.post("login", { username: "test", password: "1234" });
      const confirm = (await flow.page()).html;
      expect(confirm).toContain(`<h1>${confirmHeading}</h1>`);
      expect(confirm).toContain(`>${approve}</button>`);
      expect(confirm).toContain(account);
      if (lang !== "en") expect(confirm).not.toMatch(/>(Approve|Cancel|Pay from|Amount)</);
    });
  }

  it("takes the lang the PHP client appends to the confirmLink, and falls back to en", async () => {
    const { confirmLink } = await createPayment(s.api);
    expect((await (await openLink(`${confirmLink}?lang=et`)).page()).html).toContain('<html lang="et">');
    const other = await createPayment(s.api, { query: "?lang=ru" });
    expect((await (await openLink(other.confirmLink)).page()).html).toContain('<html lang="en">');
  });
});

describe("countryFromAcceptLanguage", () => {
  it("prefers the region, then the language, by q-value", () => {
    expect(countryFromAcceptLanguage("en-EE,en;q=0.9")).toBe("EE");
    expect(countryFromAcceptLanguage("en;q=0.5,lt;q=0.9")).toBe("LT");
    expect(countryFromAcceptLanguage("et")).toBe("EE");
    expect(countryFromAcceptLanguage("de-DE,fr")).toBeUndefined();
    expect(countryFromAcceptLanguage(undefined)).toBeUndefined();
  });
});
