import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { countryFromAcceptLanguage } from "./hosted";
import { createPayment, getJson, getPage, postForm, startSandbox, type RunningSandbox } from "./test-helpers";

let s: RunningSandbox;

beforeAll(async () => {
  s = await startSandbox();
});
afterAll(async () => {
  await s.sandbox.close();
});

/** The hosted page's form actions for a payment. */
function pages(id: string) {
  const page = `${s.baseUrl}/login/${id}`;
  return {
    page,
    bank: `${page}/bank`,
    login: `${page}/login`,
    approve: `${page}/approve`,
    cancel: `${page}/cancel`,
  };
}

const status = async (id: string) => (await getJson(`${s.api}/pis/payment/${id}/status`)).json;

describe("hosted page", () => {
  it("takes the payer from bank choice through login to approval and back to the merchant", async () => {
    const { id, confirmLink } = await createPayment(s.api, { redirectUrl: "https://shop.example/return" });
    const p = pages(id);

    const choose = await getPage(confirmLink);
    expect(choose.status).toBe(200);
    expect(choose.html).toContain('<html lang="en">');
    expect(choose.html).toContain("12.30 EUR");
    expect(choose.html).toContain("Demo Shop UAB");
    expect(choose.html).toContain("Order 1042");
    expect(choose.html).toContain('value="SWEDBANK_LT_SAND"');
    expect(choose.html).toContain('<img src="/logos/SWEDBANK_LT_SAND.svg"');
    expect(choose.html).toMatch(/<button type="submit" class="primary">Continue<\/button>/);

    expect(await postForm(p.bank, { bankId: "SEB_LT_SAND" })).toEqual({ status: 303, location: `/login/${id}` });
    const login = await getPage(p.page);
    expect(login.html).toContain("<h1>Log in to SEB</h1>");
    expect(login.html).toMatch(/<label for="username">Username<\/label>/);
    expect(login.html).toMatch(/<label for="password">Password<\/label>/);
    expect(login.html).toContain("<kbd>test</kbd>");
    expect(login.html).toContain("<kbd>1234</kbd>");

    // Approving before logging in changes nothing.
    expect(await postForm(p.approve)).toEqual({ status: 303, location: `/login/${id}` });
    expect(await status(id)).toEqual({ bankStatus: "STRD", group: "started" });

    expect(await postForm(p.login, { username: "test", password: "wrong" })).toEqual({
      status: 303,
      location: `/login/${id}?error=credentials`,
    });
    const rejected = await getPage(`${s.baseUrl}/login/${id}?error=credentials`);
    expect(rejected.html).toMatch(/role="alert"[^>]*>Wrong username or password/);
    expect(rejected.html).toContain('<label for="password">Password</label>');

    expect(await postForm(p.login, { username: "test", password: "1234" })).toEqual({ status: 303, location: `/login/${id}` });
    const confirm = await getPage(p.page);
    expect(confirm.html).toContain("<h1>Confirm payment</h1>");
    expect(confirm.html).toMatch(/<button type="submit" class="primary">Approve<\/button>/);
    expect(confirm.html).toMatch(/<button type="submit">Cancel<\/button>/);

    const approved = await postForm(p.approve);
    expect(approved.status).toBe(303);
    const back = new URL(approved.location);
    expect(back.origin + back.pathname).toBe("https://shop.example/return");
    expect(back.searchParams.get("paymentId")).toBe(id);
    expect(back.searchParams.get("statusGroup")).toBe("completed");

    expect(await status(id)).toEqual({ bankStatus: "ACSC", group: "completed" });
    const { json } = await getJson(`${s.api}/pis/payment/${id}`);
    expect(json).toMatchObject({
      bankStatus: "ACSC",
      statusGroup: "completed",
      bankPaymentMethod: { bankId: "SEB_LT_SAND", debtorAccount: { iban: expect.stringMatching(/^LT\d{18}$/), currencyCode: "EUR" } },
    });
  });

  it("never changes a finished payment: a second click or a late Cancel just goes back to the merchant", async () => {
    const { id } = await createPayment(s.api, { query: "?bankId=SWEDBANK_LT_SAND" });
    const p = pages(id);
    await postForm(p.login, { username: "test", password: "1234" });
    const first = await postForm(p.approve);
    expect(await postForm(p.approve)).toEqual(first);
    expect(await postForm(p.cancel)).toEqual(first);
    expect(await status(id)).toEqual({ bankStatus: "ACSC", group: "completed" });
    const done = await getPage(p.page);
    expect(done.html).toContain("<h1>Payment approved</h1>");
    expect(done.html).not.toContain(">Approve</button>");
  });

  it("starts at the bank login when the merchant chose the bank", async () => {
    const { confirmLink } = await createPayment(s.api, { query: "?bankId=LHV_EE_SAND" });
    const { html } = await getPage(confirmLink);
    expect(html).toContain("<h1>Log in to LHV</h1>");
    expect(html).not.toContain('name="bankId"');
    expect(html).not.toContain("Choose another bank");
  });

  it("cancelled on the confirm step: CANC / failed with code 21004", async () => {
    const { id } = await createPayment(s.api, { redirectUrl: "https://shop.example/return?order=7&sig=a%20b" });
    const p = pages(id);
    await postForm(p.bank, { bankId: "LUMINOR_LT_SAND" });
    await postForm(p.login, { username: "test", password: "1234" });
    const { status: code, location } = await postForm(p.cancel);
    expect(code).toBe(303);
    // The merchant's own query stays byte for byte; ours is appended with "&".
    expect(location).toBe(`https://shop.example/return?order=7&sig=a%20b&paymentId=${id}&statusGroup=failed`);
    expect(await status(id)).toEqual({ bankStatus: "CANC", group: "failed", error: { code: [21004] } });
  });

  it("cancelled before logging in: CANC / failed with code 21001", async () => {
    const { id } = await createPayment(s.api);
    const { location } = await postForm(pages(id).cancel);
    expect(new URL(location).searchParams.get("statusGroup")).toBe("failed");
    expect(await status(id)).toEqual({ bankStatus: "CANC", group: "failed", error: { code: [21001] } });
  });

  it("offers Cancel on the login step", async () => {
    const { id } = await createPayment(s.api, { query: "?bankId=SEB_EE_SAND" });
    const { html } = await getPage(pages(id).page);
    expect(html).toMatch(/action="\/login\/[0-9a-f]{40}\/cancel"><button type="submit">Cancel<\/button>/);
  });

  it("shows the banks of the payer's country from Accept-Language, switchable with the country select", async () => {
    const { id } = await createPayment(s.api);
    const latvian = await getPage(pages(id).page, { "Accept-Language": "lv-LV,lv;q=0.9,en;q=0.8" });
    expect(latvian.html).toContain('value="CITADELE_LV_SAND"');
    expect(latvian.html).not.toContain('value="SWEDBANK_LT_SAND"');
    expect(latvian.html).toContain('<option value="LV" selected>Latvia</option>');

    const estonian = await getPage(`${pages(id).page}?country=EE`, { "Accept-Language": "lv" });
    expect(estonian.html).toContain('value="COOP_EE_SAND"');

    const fallback = await getPage(pages(id).page, { "Accept-Language": "de-DE" });
    expect(fallback.html).toContain('value="SIAULIU_LT_SAND"');
  });

  it("asks again when Continue is pressed without a bank", async () => {
    const { id } = await createPayment(s.api);
    expect(await postForm(pages(id).bank, {})).toEqual({ status: 303, location: `/login/${id}?error=bank` });
    const { html } = await getPage(`${pages(id).page}?error=bank`);
    expect(html).toMatch(/role="alert">Choose a bank/);
  });

  it("answers 404 pages for unknown payments", async () => {
    const page = await getPage(`${s.baseUrl}/login/${"f".repeat(40)}`);
    expect(page.status).toBe(404);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(page.html).toContain("Payment not found");
    expect((await postForm(`${s.baseUrl}/login/${"f".repeat(40)}/approve`)).status).toBe(404);
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
