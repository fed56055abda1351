import { expect, test } from "@playwright/test";
import { expectNoAxeViolations } from "./axe";
import { countReloads, createCheckout, forceProviderStatus, MERCHANT_KEY, payThenComeBack } from "./journey";

/*
 * WCAG 2.2.1 (timing adjustable): a checkout with a short life says by when to pay, warns once
 * shortly before the end, and when it ends says so where the payer is, without reloading the page
 * out from under them.
 */

test.use({ timezoneId: "Europe/Riga" });

/** "14:32" in Riga (and Vilnius: the same time), as the page writes it in English. */
const hhmm = (iso: string) =>
  new Intl.DateTimeFormat("en", { timeZone: "Europe/Riga", hour: "2-digit", minute: "2-digit" }).format(
    Date.parse(iso),
  );

test("a checkout that ends soon says by when, warns two minutes before, and ends in place with the focus on it", async ({
  page,
  request,
}) => {
  await page.clock.install();
  const checkoutId = await createCheckout(request, { expiresInMinutes: 10 });
  const { expiresAt } = (await (
    await request.get(`/api/checkouts/${checkoutId}`, { headers: { Authorization: "Bearer dev-merchant-key" } })
  ).json()) as { expiresAt: string };
  const deadline = `Pay by ${hhmm(expiresAt)}. After that, this checkout expires.`;
  // In the HTML itself, before any script runs.
  const html = await (await request.get(`/checkout/${checkoutId}?lang=en`)).text();
  expect(html.match(/<p class="hint deadline">[^<]*/)?.[0]).toContain(deadline);

  await page.goto(`/checkout/${checkoutId}?lang=en`);
  await expect(page.getByText(deadline)).toBeVisible();
  const warning = page.getByRole("status").filter({ hasText: "Less than two minutes left to pay" });
  await expect(warning).toHaveCount(0);
  await page.getByRole("radio", { name: "SEB", exact: true }).check();
  await page.getByRole("checkbox", { name: /Terms and Conditions/ }).focus();
  const seen = countReloads(page);

  await page.clock.runFor(8 * 60_000 + 1_000);
  await expect(warning).toHaveText(`Less than two minutes left to pay: this checkout expires at ${hhmm(expiresAt)}.`);
  await expect(page.getByRole("checkbox", { name: /Terms and Conditions/ })).toBeFocused();

  await page.clock.runFor(2 * 60_000);
  const ended = page.getByRole("heading", { name: "This checkout has expired" });
  await expect(ended).toBeFocused();
  await expect(page.getByRole("button", { name: /^Pay/ })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Return to the shop" })).toBeVisible();
  expect(seen.reloads).toBe(0);
});

test("a checkout that lasts longer than 20 hours shows no deadline", async ({ page, request }) => {
  const checkoutId = await createCheckout(request);
  await page.goto(`/checkout/${checkoutId}?lang=en`);
  await expect(page.getByRole("button", { name: /^Pay/ })).toBeVisible();
  await expect(page.getByText(/this checkout expires/)).toHaveCount(0);
});

test.describe("on a computer (1280×800)", () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test("a checkout the server reports expired is shown ended in place, not by reloading the page", async ({
    page,
    request,
  }) => {
    await page.clock.install();
    const checkoutId = await createCheckout(request);
    // What the status answers once the checkout has expired (the QR hand-off asks it every 5 s).
    let expired = false;
    await page.route(/\/api\/checkouts\/[^/]+\/status$/, async (route) => {
      const answer = await route.fetch();
      const json = (await answer.json()) as Record<string, unknown>;
      await route.fulfill({ response: answer, json: expired ? { ...json, status: "expired", final: true } : json });
    });
    await page.goto(`/checkout/${checkoutId}?lang=en`);
    await page.getByRole("radio", { name: "SEB", exact: true }).check();
    await page.getByRole("checkbox", { name: /Terms and Conditions/ }).focus();
    const seen = countReloads(page);

    expired = true;
    await page.clock.runFor(6_000);
    await expect(page.getByRole("heading", { name: "This checkout has expired" })).toBeFocused();
    await expect(page.getByRole("radio", { name: "SEB", exact: true })).toHaveCount(0);
    expect(seen.reloads).toBe(0);
  });
});

/*
 * A payment under way when the time runs out is not over: the server never expires a checkout with
 * a payment in flight (README "Statuses"), and the bank may still approve it. The page goes on
 * showing what the server says, and ends in place only when the server says the checkout ended.
 */
test.describe("with a payment under way", () => {
  test("the bank refusing it after the time ran out ends the checkout in place, with the focus on it", async ({
    page,
    request,
  }) => {
    await page.clock.install();
    const checkoutId = await createCheckout(request, { expiresInMinutes: 10 });
    await page.goto(`/checkout/${checkoutId}?lang=en`);
    const bankPage = await payThenComeBack(page);
    const seen = countReloads(page);

    await page.clock.fastForward(10 * 60_000 + 1_000);
    await expect(
      page.getByRole("status").filter({ hasText: "The time to pay has run out, but the payment you started" }),
    ).toBeVisible();
    await expect(page.getByRole("heading", { name: "Your payment is in progress" })).toBeVisible();

    await forceProviderStatus(request, new URL(bankPage).pathname.split("/")[2]!, { bankStatus: "RJCT" });
    await page.clock.runFor(3_000);
    const ended = page.getByRole("heading", { name: "This checkout has expired" });
    await expect(ended).toBeFocused({ timeout: 15_000 });
    await expect(page.getByRole("button", { name: /^Pay/ })).toHaveCount(0);
    expect(seen.reloads).toBe(0);
    await expectNoAxeViolations(page);
  });

  test("the merchant cancelling it is said in place, with the focus on it, without reloading the page", async ({
    page,
    request,
  }) => {
    const checkoutId = await createCheckout(request);
    await page.goto(`/checkout/${checkoutId}?lang=en`);
    await payThenComeBack(page);
    const seen = countReloads(page);

    const cancelled = await request.post(`/api/checkouts/${checkoutId}/cancel`, {
      headers: { Authorization: `Bearer ${MERCHANT_KEY}` },
    });
    expect(cancelled.status()).toBe(200);
    await expect(page.getByRole("heading", { name: "This checkout was cancelled" })).toBeFocused({ timeout: 15_000 });
    await expect(page.getByRole("link", { name: "Return to the shop" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Choose another bank" })).toHaveCount(0);
    expect(seen.reloads).toBe(0);
    await expectNoAxeViolations(page);
  });
});
