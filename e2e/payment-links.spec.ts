import { expect, test, type APIRequestContext } from "@playwright/test";
import { expectNoAxeViolations } from "./axe";
import { decideAtBank, MERCHANT_KEY, payWithBank } from "./journey";

const auth = { Authorization: `Bearer ${MERCHANT_KEY}` };
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

interface Link {
  id: string;
  url: string;
  slug: string;
  status: string;
  payments: number;
  totalPaid: string;
}

async function makeLink(request: APIRequestContext, data: Record<string, unknown>): Promise<Link> {
  const res = await request.post("/api/payment-links", { headers: auth, data });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as Link;
}

test("a payer opens a payment link on a phone, chooses the amount, gives the invoice number, pays and lands; the merchant sees the payment under the link", async ({
  browser,
  request,
  baseURL,
}) => {
  const link = await makeLink(request, {
    title: "Invoice payment",
    description: "Pay any open invoice of Demo Shop UAB.",
    currency: "EUR",
    payerAmount: { min: "5.00", max: "500.00" },
    referencePrefix: "INV",
    payerField: { label: "Invoice number", required: true },
  });
  expect(link.url).toBe(`${baseURL}/pay/${link.slug}`);

  const phone = await browser.newContext({ ...PHONE, baseURL, locale: "lt-LT" });
  const page = await phone.newPage();
  try {
    // Opening the link makes nothing; the page speaks the phone's language.
    await page.goto(`/pay/${link.slug}`);
    await expect(page.getByRole("heading", { level: 1, name: "Invoice payment" })).toBeVisible();
    await expectNoAxeViolations(page);
    const amount = page.getByRole("textbox", { name: "Suma (EUR)" });
    const invoice = page.getByRole("textbox", { name: "Invoice number" });

    // Outside the range and no invoice number: both said, in Lithuanian, naming the limits.
    await amount.fill("2");
    await page.getByRole("button", { name: "Tęsti mokėjimą" }).click();
    await expect(page.getByRole("main").getByRole("alert")).toContainText("Įveskite sumą nuo 5,00 € iki 500,00 €.");
    await expect(page.getByRole("main").getByRole("alert")).toContainText("Užpildykite lauką „Invoice number“.");
    await expect(amount).toHaveAttribute("aria-invalid", "true");
    await expectNoAxeViolations(page);
    expect(
      ((await (await request.get(`/api/payment-links/${link.id}`, { headers: auth })).json()) as Link).payments,
    ).toBe(0);

    await amount.fill("42,50");
    await invoice.fill("INV-2026-117");
    await page.getByRole("button", { name: "Tęsti mokėjimą" }).click();
    // The ordinary checkout page, for the amount the payer chose.
    await page.waitForURL(/\/checkout\/co_[^/?]+\?lang=lt$/);
    const checkoutId = new URL(page.url()).pathname.split("/")[2]!;
    await expect(page.getByText("42,50 €").first()).toBeVisible();
    await page.goto(`/checkout/${checkoutId}?lang=en`);
    await payWithBank(page);
    await decideAtBank(page, "Approve");
    await expect(page.getByRole("heading", { name: "Payment received" })).toBeVisible();

    const checkout = await (await request.get(`/api/checkouts/${checkoutId}`, { headers: auth })).json();
    expect(checkout).toMatchObject({
      status: "paid",
      amount: "42.50",
      description: "Invoice payment",
      metadata: { "Invoice number": "INV-2026-117" },
    });
    expect(checkout.reference).toMatch(/^INV-/);
  } finally {
    await phone.close();
  }

  const paid = (await (await request.get(`/api/payment-links/${link.id}`, { headers: auth })).json()) as Link;
  expect(paid).toMatchObject({ status: "active", payments: 1, totalPaid: "42.50" });
  const listed = (await (await request.get("/api/payment-links", { headers: auth })).json()) as { items: Link[] };
  expect(listed.items.find((l) => l.id === link.id)).toMatchObject({ payments: 1 });
});

test("a link that was deactivated says so in the payer's language with 410, and a link's last payment is not made twice", async ({
  page,
  request,
}) => {
  const link = await makeLink(request, {
    title: "Concert ticket",
    currency: "EUR",
    amount: "15.00",
    referencePrefix: "TICKET",
    maxPayments: 1,
  });
  // The first payer holds the only place; the second is told to try again soon (409).
  await page.goto(`/pay/${link.slug}?lang=en`);
  await expect(page.getByText("€15.00")).toBeVisible();
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await page.waitForURL(/\/checkout\/co_/);

  await page.goto(`/pay/${link.slug}?lang=lv`);
  const answer = page.waitForResponse((r) => r.url().includes(`/pay/${link.slug}?`) && r.request().method() === "GET");
  await page.getByRole("button", { name: "Turpināt maksājumu" }).click();
  expect((await answer).status()).toBe(409);
  await expect(page.getByRole("main").getByRole("alert")).toContainText("Kāds maksā tieši tagad");
  await expectNoAxeViolations(page);

  const off = await request.post(`/api/payment-links/${link.id}/deactivate`, { headers: auth });
  expect(await off.json()).toMatchObject({ status: "deactivated" });
  const gone = await page.goto(`/pay/${link.slug}?lang=et`);
  expect(gone?.status()).toBe(410);
  await expect(page.getByRole("heading", { name: "See makselink ei kehti enam" })).toBeVisible();
  await expect(page.getByRole("button")).toHaveCount(0);
  await expectNoAxeViolations(page);

  const unknown = await request.get("/api/payment-links/plink_unknown", { headers: auth });
  expect(await unknown.json()).toMatchObject({ status: 404, code: "payment_link_not_found" });
  expect((await page.goto("/pay/nosuchlink0"))?.status()).toBe(404);
});
