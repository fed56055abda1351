import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { countryFromAcceptLanguage } from "./pages";
import {
  control,
  createPayment,
  getJson,
  getPage,
  openLink,
  payAtBank,
  postForm,
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
