import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkCardForm, luhnValid } from "./cards";
import {
  control,
  createPayment,
  getJson,
  initiate,
  nocardCredentials,
  openLink,
  paymentBody,
  startSandbox,
  type RunningSandbox,
} from "./test-helpers";

let s: RunningSandbox;

beforeAll(async () => {
  s = await startSandbox();
});
afterAll(async () => {
  await s.sandbox.close();
});

const status = async (id: string) => (await getJson(`${s.api}/pis/payment/${id}/status`)).json;
const cardQuery = "?paymentMethodPreferred=card";
const card = (number: string) => ({ number, expiry: "12/39", cvc: "123", name: "Test Payer" });

async function cardPayment() {
  const { id, confirmLink } = await createPayment(s.api, {
    query: cardQuery,
    body: paymentBody({ cardPaymentMethod: {} }),
  });
  return { id, flow: await openLink(confirmLink) };
}

describe("card payments (v0.3)", () => {
  it("initiates with hybridStatus created and shows the card form with the test cards", async () => {
    const { json } = await initiate(s.api, { query: cardQuery, body: paymentBody({ cardPaymentMethod: {} }) });
    expect(json).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{40}$/),
      hybridStatus: "created",
      statusGroup: "started",
      confirmLink: expect.any(String),
    });
    const flow = await openLink(String(json.confirmLink));
    const { html } = await flow.page();
    expect(html).toContain("<h1>Pay by card</h1>");
    expect(html).toContain('<label for="number">Card number</label>');
    expect(html).toContain('autocomplete="cc-number"');
    expect(html).toContain("<kbd>4111 1111 1111 1111</kbd>: payment succeeds");
    expect(html).toContain("<kbd>4000 0000 0000 0002</kbd>: payment is declined");
    expect(html).toContain("<kbd>4000 0000 0000 3220</kbd>: asks for a one-time code");
    expect(html).toContain(">Pay 12.30 EUR</button>");
    expect(await status(String(json.id))).toEqual({ hybridStatus: "created", group: "started" });
  });

  it("4111 1111 1111 1111 succeeds: cardStatus payment_success / completed", async () => {
    const { id, flow } = await cardPayment();
    const answer = await flow.post("card", card("4111 1111 1111 1111"));
    expect(new URL(answer.location).searchParams.get("statusGroup")).toBe("completed");
    expect(await status(id)).toEqual({ cardStatus: "payment_success", group: "completed" });
    const payment = (await getJson(`${s.api}/pis/payment/${id}`)).json;
    expect(payment).toMatchObject({ cardStatus: "payment_success", statusGroup: "completed", cardPaymentMethod: {} });
    expect(payment).not.toHaveProperty("hybridStatus");
  });

  it("4000 0000 0000 0002 is declined: payment_failure / failed with 21101", async () => {
    const { id, flow } = await cardPayment();
    const answer = await flow.post("card", card("4000000000000002"));
    expect(new URL(answer.location).searchParams.get("statusGroup")).toBe("failed");
    expect(await status(id)).toEqual({ cardStatus: "payment_failure", group: "failed", error: { code: [21101] } });
    expect((await flow.page()).html).toContain("<h1>Card declined</h1>");
  });

  it("4000 0000 0000 3220 asks for the one-time code 123456; a wrong code asks again", async () => {
    const { id, flow } = await cardPayment();
    expect(await flow.post("card", card("4000 0000 0000 3220"))).toEqual({
      status: 303,
      location: `/login/${id}/step`,
    });
    const verify = await flow.page();
    expect(verify.html).toContain("<h1>Confirm with your card issuer</h1>");
    expect(verify.html).toContain('<label for="otp">One-time code</label>');
    expect(verify.html).toContain("The code is 123456.");
    expect(await status(id)).toEqual({ hybridStatus: "created", group: "started" });

    expect(await flow.post("otp", { otp: "000000" })).toEqual({ status: 303, location: `/login/${id}/step?error=otp` });
    expect((await flow.page("?error=otp")).html).toMatch(/role="alert" id="otp-error">Wrong code/);
    const answer = await flow.post("otp", { otp: "123456" });
    expect(new URL(answer.location).searchParams.get("statusGroup")).toBe("completed");
    expect(await status(id)).toEqual({ cardStatus: "payment_success", group: "completed" });
  });

  it("cancelled at the code step: cardStatus cancelled / failed with 21004", async () => {
    const { id, flow } = await cardPayment();
    await flow.post("card", card("4000000000003220"));
    await flow.post("cancel");
    expect(await status(id)).toEqual({ cardStatus: "cancelled", group: "failed", error: { code: [21004] } });
  });

  it("cancelled on the card form: hybridStatus cancelled / failed with 21001", async () => {
    const { id, flow } = await cardPayment();
    await flow.post("cancel");
    expect(await status(id)).toEqual({ hybridStatus: "cancelled", group: "failed", error: { code: [21001] } });
  });

  it("explains card form mistakes without echoing the card number", async () => {
    const { id, flow } = await cardPayment();
    const cases: [Record<string, string>, string, string][] = [
      [card("4111 1111 1111 1112"), "number", "Enter a valid card number."],
      [card("5555 5555 5555 4444"), "unknown", "Use one of the test cards listed above."],
      [{ ...card("4111111111111111"), expiry: "01/20" }, "expiry", "Enter the expiry date as MM/YY, not in the past."],
      [{ ...card("4111111111111111"), cvc: "12" }, "cvc", "Enter the 3-digit security code."],
      [{ ...card("4111111111111111"), name: " " }, "name", "Enter the name on the card."],
    ];
    for (const [fields, error, message] of cases) {
      expect(await flow.post("card", fields)).toEqual({ status: 303, location: `/login/${id}/step?error=${error}` });
      const { html } = await flow.page(`?error=${error}`);
      expect(html).toContain(message);
      expect(html).toContain('aria-invalid="true" aria-describedby="card-error"');
    }
    expect(await status(id)).toEqual({ hybridStatus: "created", group: "started" });
  });

  it("expires after 7 days as hybridStatus expired / failed with 21100", async () => {
    // A still clock: only time travel moves it, so the last millisecond is exact.
    const other = await startSandbox({ now: () => 1_800_000_000_000 });
    try {
      const { id } = await createPayment(other.api, { query: cardQuery, body: paymentBody({ cardPaymentMethod: {} }) });
      await control(other).post("/clock", { advanceMs: 7 * 24 * 3600 * 1000 - 1 });
      expect((await getJson(`${other.api}/pis/payment/${id}/status`)).json).toEqual({
        hybridStatus: "created",
        group: "started",
      });
      await control(other).post("/clock", { advanceMs: 1 });
      expect((await getJson(`${other.api}/pis/payment/${id}/status`)).json).toEqual({
        hybridStatus: "expired",
        group: "failed",
        error: { code: [21100] },
      });
    } finally {
      await other.sandbox.close();
    }
  });
});

describe("hybrid payments (v0.3)", () => {
  it("lets the payer pick the bank: the payment then reports bankStatus", async () => {
    const { id, confirmLink } = await createPayment(s.api, { body: paymentBody({ cardPaymentMethod: {} }) });
    expect(await status(id)).toEqual({ hybridStatus: "created", group: "started" });
    const flow = await openLink(confirmLink);
    const choice = await flow.page();
    expect(choice.html).toContain("<h1>Choose how to pay</h1>");
    expect(choice.html).toContain('name="method" value="bank"');
    expect(choice.html).toContain('name="method" value="card"');
    await flow.post("method", { method: "bank" });
    expect(await status(id)).toEqual({ bankStatus: "STRD", group: "started" });
    const bank = await flow.page();
    expect(bank.html).toContain("<h1>Choose your bank</h1>");
    expect(bank.html).toContain("Step 2 of 4");
    await flow.post("bank", { bankId: "SEB_LT_SAND" });
    await flow.post("login", { username: "test", password: "1234" });
    await flow.post("approve");
    expect(await status(id)).toEqual({ bankStatus: "ACSC", group: "completed" });
  });

  it("lets the payer pick the card", async () => {
    const { id, confirmLink } = await createPayment(s.api, { body: paymentBody({ cardPaymentMethod: {} }) });
    const flow = await openLink(confirmLink);
    await flow.post("method", { method: "card" });
    expect((await flow.page()).html).toContain("Step 2 of 2");
    await flow.post("card", card("4111111111111111"));
    expect(await status(id)).toEqual({ cardStatus: "payment_success", group: "completed" });
  });

  it("cancelled before choosing: hybridStatus cancelled", async () => {
    const { id, confirmLink } = await createPayment(s.api, { body: paymentBody({ cardPaymentMethod: {} }) });
    await (await openLink(confirmLink)).post("cancel");
    expect(await status(id)).toEqual({ hybridStatus: "cancelled", group: "failed", error: { code: [21001] } });
  });

  it("paymentMethodPreferred=bank with a cardPaymentMethod is a plain bank payment", async () => {
    const { json } = await initiate(s.api, {
      query: "?paymentMethodPreferred=bank",
      body: paymentBody({ cardPaymentMethod: {} }),
    });
    expect(json).toMatchObject({ bankStatus: "STRD", statusGroup: "started" });
  });
});

describe("card initiation errors", () => {
  it("refuses cards for a project without the card method", async () => {
    for (const opts of [
      { query: cardQuery, body: paymentBody({ cardPaymentMethod: {} }) },
      { body: paymentBody({ cardPaymentMethod: {} }) },
    ]) {
      const { status: code, json } = await initiate(s.api, { ...opts, headers: nocardCredentials });
      expect(code).toBe(400);
      expect(json).toEqual({
        error: { code: 10020, name: "InvalidPaymentMethod", description: "The project has no card payments." },
        data: {},
      });
    }
  });

  it("wants cardPaymentMethod with paymentMethodPreferred=card, and knows only bank and card", async () => {
    const missing = await initiate(s.api, { query: cardQuery });
    expect(missing).toMatchObject({
      status: 400,
      json: { error: { name: "InvalidPaymentData" }, data: '"cardPaymentMethod" is required' },
    });
    const other = await initiate(s.api, { query: "?paymentMethodPreferred=cash" });
    expect(other).toMatchObject({
      status: 400,
      json: { error: { name: "InvalidRequest" }, data: '"paymentMethodPreferred" must be one of [bank, card]' },
    });
  });
});

describe("card helpers", () => {
  it("checks Luhn and the form", () => {
    expect(luhnValid("4111111111111111")).toBe(true);
    expect(luhnValid("4111111111111112")).toBe(false);
    const now = Date.UTC(2030, 5, 15);
    const form = (expiry: string) => new URLSearchParams({ number: "4111111111111111", expiry, cvc: "123", name: "A" });
    expect(checkCardForm(form("06/30"), now)).toMatchObject({ card: { behaviour: "success" } });
    expect(checkCardForm(form("05/30"), now)).toEqual({ error: "expiry" });
    expect(checkCardForm(form("13/31"), now)).toEqual({ error: "expiry" });
  });
});
