import { expect, test } from "@playwright/test";
import { createCheckout, decideAtBank, payWithBank, sandboxPayments } from "./journey";

/**
 * When a page's server render throws, Next answers 200 with an empty error shell and the browser
 * renders the page itself: it still works once the code has run, so no other test notices, but
 * the payer stares at a blank screen until then and the first paint waits for all the JavaScript.
 * Each page's HTML must already hold what the payer reads and acts on.
 */
test("every payer page arrives rendered: its content is in the HTML, before any script runs", async ({ request }) => {
  const id = await createCheckout(request);
  const pages: [string, RegExp][] = [
    [`/checkout/${id}`, /Search banks[\s\S]*name="bankId"[\s\S]*Terms and Conditions/],
    [`/checkout/${id}/return`, /<h1[^>]*>/],
    [`/checkout/${id}/embed`, /Search banks[\s\S]*name="bankId"/],
    ["/", /<h1[^>]*>/],
    ["/accessibility", /<h1[^>]*>/],
  ];
  for (const [path, content] of pages) {
    const res = await request.get(`${path}?lang=en`);
    expect(res.status(), path).toBe(200);
    const html = await res.text();
    expect(html, path).not.toContain('id="__next_error__"');
    expect(html.replace(/<script[\s\S]*?<\/script>/g, ""), path).toMatch(content);
  }
});

/**
 * Content in the HTML is not enough: a page that streams its content behind a loading state keeps
 * it hidden (`<div hidden>`) until an inline script swaps it in, so with JavaScript off the payer
 * sees the loading state for ever, and with it on, the swap waits for React's reveal throttle.
 * What the payer reads must not depend on the page's code having run (blocked, failed to load).
 */
test.describe("with JavaScript off", () => {
  test.use({ javaScriptEnabled: false });

  test("every payer page shows what the payer reads", async ({ page, request }) => {
    const id = await createCheckout(request);
    for (const path of [`/checkout/${id}`, `/checkout/${id}/return`, "/", "/accessibility"]) {
      await page.goto(`${path}?lang=en`);
      await expect(page.getByRole("heading", { level: 1 }), path).toBeVisible();
    }
    // The bank picker a merchant frames has no page heading of its own; its banks are what it shows.
    await page.goto(`/checkout/${id}/embed?lang=en`);
    await expect(page.getByRole("radio", { name: "Swedbank" })).toBeVisible();
    // The landing: how the payment stands, and the order it is for.
    await page.goto(`/checkout/${id}/return?lang=en`);
    await expect(page.getByRole("heading", { level: 1, name: /confirming your payment/i })).toBeVisible();
    await expect(page.getByText("Order from the e2e shop")).toBeVisible();
    await expect(page.getByText(/24\.90/).first()).toBeVisible();
  });

  test("the payer pays: the form posts itself, the bank's page opens, and the landing shows it paid", async ({
    page,
    request,
  }) => {
    const id = await createCheckout(request);
    await page.goto(`/checkout/${id}?lang=en`);
    await payWithBank(page);
    await decideAtBank(page, "Approve");
    await page.waitForURL(new RegExp(`/checkout/${id}/return`));
    // The page shows what it knew when rendered: on a busy machine the provider may not have
    // answered within the page's wait, and without JavaScript nothing asks again but a reload.
    await expect(async () => {
      await page.reload();
      await expect(page.getByRole("heading", { name: "Payment received" })).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 20_000 });
  });

  test("Pay without the Terms comes back to the form saying so, and nothing is paid", async ({ page, request }) => {
    const reference = `nojs-terms-${Date.now()}`;
    const id = await createCheckout(request, { reference });
    await page.goto(`/checkout/${id}?lang=en`);
    await page.getByRole("radio", { name: "SEB", exact: true }).check();
    await page.getByRole("button", { name: /^Pay/ }).click();
    await page.waitForURL(new RegExp(`/checkout/${id}\\?`));
    await expect(page.getByText("To pay, accept the Terms and Conditions.").first()).toBeVisible();
    expect(await sandboxPayments(request, reference)).toEqual([]);
  });
});
