import { readFile } from "node:fs/promises";
import { expect, test, type Page } from "@playwright/test";
import jsQR from "jsqr";
import { PNG } from "pngjs";
import { expectNoAxeViolations } from "./axe";
import { decideAtBank, DEMO_ADMIN, payWithBank, signInToBackoffice } from "./journey";

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

/*
 * Payment links in the back office (issue 54, item 2): staff make a link, share its address and
 * QR code, see its checkouts and deactivate it.
 */

export interface LinkFields {
  title: string;
  referencePrefix: string;
  /** A fixed amount; leave it out to let the payer choose between min and max. */
  amount?: string;
  min?: string;
  max?: string;
  suggested?: string;
  payerField?: { label: string; required?: boolean };
}

/**
 * Makes a payment link with the back office's form (the page must be signed in, support or up) and
 * opens its page: the link's id and the address payers are sent to.
 */
export async function makeLinkInBackoffice(page: Page, link: LinkFields): Promise<{ id: string; url: string }> {
  await page.goto("/backoffice/payment-links");
  await fillLinkForm(page, link);
  await page.getByRole("button", { name: "Make payment link" }).click();
  const result = page.getByRole("status", { name: "New payment link result" });
  await expect(result).toContainText(`The payment link “${link.title}” is made.`);
  await result.getByRole("link", { name: "Open its page" }).click();
  await expect(page.getByRole("heading", { level: 1, name: link.title })).toBeVisible();
  const id = /\/backoffice\/payment-links\/(plink_[A-Za-z0-9_-]+)$/.exec(page.url())?.[1];
  expect(id, "the link's page is at its id").toBeDefined();
  return { id: id!, url: await page.getByLabel("Link address").inputValue() };
}

async function fillLinkForm(page: Page, link: LinkFields) {
  const form = page.getByRole("region", { name: "New payment link" });
  await form.getByLabel("Title").fill(link.title);
  if (link.amount !== undefined) {
    await form.getByLabel("A fixed amount").check();
    await form.getByLabel("Amount", { exact: true }).fill(link.amount);
  } else {
    await form.getByLabel("The payer chooses").check();
    await form.getByLabel("Minimum").fill(link.min ?? "");
    await form.getByLabel("Maximum").fill(link.max ?? "");
    await form.getByLabel(/^Suggested/).fill(link.suggested ?? "");
  }
  await form.getByLabel("Reference prefix").fill(link.referencePrefix);
  await form.getByLabel(/^Payer field label/).fill(link.payerField?.label ?? "");
  await form.getByLabel("The payer must fill in that field").setChecked(link.payerField?.required ?? true);
}

/** What a phone's camera reads from a PNG. */
function decodeQr(png: Buffer): string | undefined {
  const image = PNG.sync.read(png);
  return jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data;
}

test("staff make a link with a payer-chosen amount and a payer field; its QR code decodes to its address; a payer pays it on a phone and staff see the payment under it; deactivated, it says so", async ({
  page,
  request,
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const title = `Invoice ${Date.now()}`;
  const invoice: LinkFields = {
    title,
    min: "5",
    max: "500",
    referencePrefix: "INV",
    payerField: { label: "Invoice number" },
  };
  await signInToBackoffice(page);
  await page.getByRole("navigation", { name: "Back office" }).getByRole("link", { name: "Payment links" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Payment links" })).toBeVisible();

  // A range the domain refuses: said beside the field it names, and in the form's alert.
  await fillLinkForm(page, { ...invoice, min: "500", max: "5" });
  await page.getByRole("button", { name: "Make payment link" }).click();
  await expect(page.getByRole("alert", { name: "New payment link error" })).toContainText("The link was not made.");
  const max = page.getByLabel("Maximum");
  await expect(max).toHaveAttribute("aria-invalid", "true");
  await expect(max).toHaveAccessibleDescription("Maximum must not be below min.");
  await expect(max).toBeFocused();
  await expectNoAxeViolations(page);

  const { id, url } = await makeLinkInBackoffice(page, invoice);
  expect(url).toMatch(new RegExp(`^${baseURL}/pay/[A-Za-z0-9]{6,20}$`));
  const slug = url.split("/").pop()!;
  await expect(page.getByRole("img", { name: `QR code of the link ${url}` })).toBeVisible();
  const details = page.getByRole("region", { name: "Details" });
  await expect(details).toContainText("Payer chooses €5.00–€500.00");
  await expect(details).toContainText("Invoice number (required)");
  await expect(page.getByRole("region", { name: "Checkouts from this link" })).toContainText(
    "No checkouts from this link yet.",
  );
  await expectNoAxeViolations(page);

  // The PNG download, as a browser saves it, read as a phone's camera would.
  const [png] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Download PNG of the QR code" }).click(),
  ]);
  expect(png.suggestedFilename()).toBe(`payment-link-${slug}.png`);
  expect(decodeQr(await readFile((await png.path())!))).toBe(url);
  const svg = await page.request.get(`/pay/${slug}/qr?format=svg&download=1`);
  expect([svg.status(), svg.headers()["content-type"], svg.headers()["content-disposition"]]).toEqual([
    200,
    "image/svg+xml",
    `attachment; filename="payment-link-${slug}.svg"`,
  ]);
  expect(await svg.text()).toMatch(/^<svg /);
  // Public like the link (a counter's poster, an invoice), and only for a link that exists.
  expect((await request.get(`/pay/${slug}/qr?format=png`)).status()).toBe(200);
  expect((await request.get("/pay/AAAAAAAAAAAA/qr")).status()).toBe(404);

  // A payer opens the link on a phone in Lithuanian: the limits and the missing invoice number are
  // said in their language; then they choose an amount, give the number, pay and land.
  const phone = await browser.newContext({ ...PHONE, baseURL, locale: "lt-LT" });
  const payer = await phone.newPage();
  try {
    await payer.goto(url);
    await expect(payer.getByRole("heading", { level: 1, name: title })).toBeVisible();
    await expectNoAxeViolations(payer);
    const amount = payer.getByRole("textbox", { name: "Suma (EUR)" });
    await amount.fill("2");
    await payer.getByRole("button", { name: "Tęsti mokėjimą" }).click();
    const problems = payer.getByRole("main").getByRole("alert");
    await expect(problems).toContainText("Įveskite sumą nuo 5,00 € iki 500,00 €.");
    await expect(problems).toContainText("Užpildykite lauką „Invoice number“.");
    await expect(amount).toHaveAttribute("aria-invalid", "true");
    await expectNoAxeViolations(payer);
    await amount.fill("42,50");
    await payer.getByRole("textbox", { name: "Invoice number" }).fill("INV-2026-117");
    await payer.getByRole("button", { name: "Tęsti mokėjimą" }).click();
    // The ordinary checkout page, for the amount the payer chose.
    await payer.waitForURL(/\/checkout\/co_[^/?]+\?lang=lt$/);
    await expect(payer.getByText("42,50 €").first()).toBeVisible();
    await payer.goto(`${new URL(payer.url()).pathname}?lang=en`);
    await payWithBank(payer);
    await decideAtBank(payer, "Approve");
    await expect(payer.getByRole("heading", { name: "Payment received" })).toBeVisible();
  } finally {
    await phone.close();
  }
  // Staff see the payment under the link, with the payer's invoice number.
  await page.reload();
  const paid = page
    .getByRole("region", { name: "Checkouts from this link" })
    .getByRole("row", { name: /INV-2026-117/ });
  await expect(paid).toContainText("Paid");
  await expect(paid).toContainText("€42.50");

  // Deactivate asks first; the answer is announced and the page says what the link is now.
  await page.getByRole("button", { name: "Deactivate link" }).click();
  await expect(page.getByRole("group", { name: /Deactivate this payment link\?/ })).toBeVisible();
  await expect(page.locator("p", { hasText: "Deactivate this payment link?" })).toBeFocused();
  await page.getByRole("button", { name: "Yes, deactivate link" }).click();
  await expect(page.getByRole("status", { name: "Deactivate result" })).toContainText("The link is deactivated");
  await expect(page.locator("main header").getByText("Deactivated", { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "Deactivate link" })).toHaveCount(0);
  await expectNoAxeViolations(page);
  await page.getByRole("link", { name: "Payment links", exact: true }).first().click();
  const row = page.getByRole("row", { name: new RegExp(title) });
  await expect(row).toContainText("Deactivated");
  await expect(row).toContainText("Payer chooses €5.00–€500.00");

  // Both changes are in the audit trail, named as the admin's.
  const csv = await (await page.request.get("/api/backoffice/activity")).text();
  for (const action of ["payment_link.created", "payment_link.deactivated"])
    expect(csv).toContain(`,staff,${DEMO_ADMIN.email},${action},payment_link,${id},succeeded,`);
});

test.describe("on a small phone", () => {
  test.use({ viewport: { width: 320, height: 700 } });

  test("the links' list, the form and a link's page fit 320 px without sideways scrolling", async ({ page }) => {
    await signInToBackoffice(page);
    const { url } = await makeLinkInBackoffice(page, {
      title: `Membership fee for the spring term of the choir ${Date.now()}`,
      amount: "120.00",
      referencePrefix: "MEMBERSHIP-2026-SPR",
      payerField: { label: "Member number or full name", required: false },
    });
    await expect(page.getByLabel("Link address")).toHaveValue(url);
    const width = () => page.evaluate(() => document.documentElement.scrollWidth);
    expect(await width()).toBeLessThanOrEqual(320);
    await page.goto("/backoffice/payment-links");
    expect(await width()).toBeLessThanOrEqual(320);
  });
});
