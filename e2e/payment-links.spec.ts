import { expect, test, type APIRequestContext } from "@playwright/test";
import { expectNoAxeViolations } from "./axe";
import { MERCHANT_KEY } from "./journey";

const auth = { Authorization: `Bearer ${MERCHANT_KEY}` };

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

test("over the API: a link's checkout is made when the payer submits, and the link counts what was paid", async ({
  page,
  request,
  baseURL,
}) => {
  const link = await makeLink(request, {
    title: "Piano lesson",
    currency: "EUR",
    amount: "25.00",
    referencePrefix: "LESSON",
    payerField: { label: "Pupil", required: false },
  });
  expect(link.url).toBe(`${baseURL}/pay/${link.slug}`);
  await page.goto(`/pay/${link.slug}?lang=en`);
  await expectNoAxeViolations(page);
  await page.getByRole("textbox", { name: "Pupil (optional)" }).fill("Ona");
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await page.waitForURL(/\/checkout\/co_/);
  const checkoutId = new URL(page.url()).pathname.split("/")[2]!;
  // The merchant's own test pays it without a browser at the bank (README "Test your integration").
  const done = await request.post(`/api/test-helpers/checkouts/${checkoutId}/complete`, {
    headers: auth,
    data: { outcome: "paid" },
  });
  expect(await done.json()).toMatchObject({ status: "paid" });
  const checkout = await (await request.get(`/api/checkouts/${checkoutId}`, { headers: auth })).json();
  expect(checkout).toMatchObject({ amount: "25.00", description: "Piano lesson", metadata: { Pupil: "Ona" } });
  expect(checkout.reference).toMatch(/^LESSON-[A-Z0-9]{10}$/);

  const paid = (await (await request.get(`/api/payment-links/${link.id}`, { headers: auth })).json()) as Link;
  expect(paid).toMatchObject({ status: "active", payments: 1, totalPaid: "25.00" });
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
