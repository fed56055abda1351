import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import {
  approveOnPhone,
  checkAgainUntilPaid,
  createCheckout,
  decideAtBank,
  forceProviderStatus,
  merchantView,
  payWithBank,
  sandboxPayments,
} from "./journey";

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

test("an unknown or mistyped checkout link says so in the HTML, in the payer's language, with a 404", async ({
  request,
}) => {
  const unknown = "co_aaaaaaaaaaaaaaaaaaaaaaaa";
  for (const path of [`/checkout/${unknown}`, `/checkout/${unknown}/return`]) {
    const res = await request.get(`${path}?lang=lt`);
    expect(res.status(), path).toBe(404);
    const html = (await res.text()).replace(/<script[\s\S]*?<\/script>/g, "");
    expect(html, path).not.toContain('id="__next_error__"');
    expect(html, path).toMatch(/<h1[^>]*>Puslapis nerastas<\/h1>/);
  }
  // The bank picker in the merchant's frame says it in the frame.
  const framed = await request.get(`/checkout/${unknown}/embed?lang=lt`);
  expect((await framed.text()).replace(/<script[\s\S]*?<\/script>/g, "")).toMatch(/>Puslapis nerastas</);
});

test("the page's description is in the page's language", async ({ request }) => {
  const id = await createCheckout(request);
  const description = async (path: string) =>
    /<meta name="description" content="([^"]*)"/.exec(await (await request.get(path)).text())?.[1];
  expect(await description(`/checkout/${id}?lang=en`)).toBe(
    "Pay by bank: choose your bank, approve the payment there, and return to the shop.",
  );
  expect(await description(`/checkout/${id}?lang=lt`)).toBe(
    "Mokėkite per banką: pasirinkite savo banką, patvirtinkite mokėjimą jame ir grįžkite į parduotuvę.",
  );
  expect(await description(`/checkout/${id}/return?lang=lv`)).toBe(
    "Maksājiet ar banku: izvēlieties savu banku, apstipriniet maksājumu tajā un atgriezieties veikalā.",
  );
  expect(await description(`/checkout/${id}/embed?lang=et`)).toBe(
    "Makske pangaga: valige oma pank, kinnitage makse seal ja naaske poodi.",
  );
});

/** A new checkout opened in English; its reference carries the test's name, to find its payments. */
async function openCheckout(page: Page, request: APIRequestContext, name: string) {
  const reference = `nojs-${name}-${Date.now()}`;
  const id = await createCheckout(request, { reference });
  await page.goto(`/checkout/${id}?lang=en`);
  return { id, reference };
}

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
    // The landing: how the payment stands (nothing paid yet, and the way to pay), and the order it is for.
    await page.goto(`/checkout/${id}/return?lang=en`);
    await expect(page.getByRole("heading", { level: 1, name: "This order is not paid yet" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Go to payment" })).toHaveAttribute("href", `/checkout/${id}`);
    await expect(page.getByText("Order from the e2e shop")).toBeVisible();
    await expect(page.getByText(/24\.90/).first()).toBeVisible();
  });

  test("a translated page's title is in its language to the end, the site's name included", async ({
    page,
    request,
  }) => {
    const id = await createCheckout(request);
    const titles = [
      [`/checkout/${id}?lang=lt`, "Apmokėjimas · Mokėjimas per banką"],
      [`/checkout/${id}/embed?lang=lv`, "Maksāt ar banku · Maksājums ar banku"],
      [`/accessibility?lang=et`, "Ligipääsetavuse teatis · Pangamakse"],
      [`/checkout/co_aaaaaaaaaaaaaaaaaaaaaaaa?lang=lt`, "Puslapis nerastas · Mokėjimas per banką"],
      [`/checkout/${id}?lang=en`, "Checkout · Bank checkout"],
    ];
    for (const [path, title] of titles) {
      await page.goto(path!);
      await expect(page, path).toHaveTitle(title!);
    }
  });

  test("the landing's title says how the payment stands, as its heading does", async ({ page, request }) => {
    const { id } = await openCheckout(page, request, "title");
    await page.goto(`/checkout/${id}/return?lang=lt`);
    await expect(page.getByRole("heading", { level: 1, name: "Šis užsakymas dar neapmokėtas" })).toBeVisible();
    await expect(page).toHaveTitle("Šis užsakymas dar neapmokėtas · Mokėjimas per banką");

    await page.goto(`/checkout/${id}?lang=en`);
    await payWithBank(page);
    await decideAtBank(page, "Approve");
    await page.waitForURL(new RegExp(`/checkout/${id}/return`));
    await checkAgainUntilPaid(page);
    await expect(page).toHaveTitle("Payment received · Bank checkout");
  });

  test("the payer pays: the form posts itself, the bank's page opens, and the landing shows it paid", async ({
    page,
    request,
  }) => {
    const { id } = await openCheckout(page, request, "pays");
    await payWithBank(page);
    const paymentId = new URL(page.url()).pathname.split("/")[2]!;
    await decideAtBank(page, "Leave pending");
    await page.waitForURL(new RegExp(`/checkout/${id}/return`));
    // Nothing asks again by itself: the page offers to, as a link to itself.
    await expect(page.getByRole("heading", { level: 1, name: "Your bank is processing the payment" })).toBeVisible();
    await forceProviderStatus(request, paymentId, { bankStatus: "ACSC" });
    await checkAgainUntilPaid(page);
    await expect(page.getByRole("link", { name: "Check again" })).toHaveCount(0);
  });

  test("Pay without the Terms comes back to the form saying so, the bank still chosen; nothing is paid until the Terms are accepted", async ({
    page,
    request,
  }) => {
    const { id, reference } = await openCheckout(page, request, "terms");
    await page.getByRole("radio", { name: "SEB", exact: true }).check();
    await page.getByRole("button", { name: /^Pay/ }).click();
    await page.waitForURL(new RegExp(`/checkout/${id}\\?`));
    await expect(page.getByText("To pay, accept the Terms and Conditions.").first()).toBeVisible();
    expect(await sandboxPayments(request, reference)).toEqual([]);
    // The payer only ticks what was missing.
    await expect(page.getByRole("radio", { name: "SEB", exact: true })).toBeChecked();
    await page.getByRole("checkbox", { name: /Terms and Conditions/ }).check();
    await page.getByRole("button", { name: /^Pay/ }).click();
    await page.waitForURL(/localhost:\d+\/login\//);
    expect(await sandboxPayments(request, reference)).toEqual([expect.objectContaining({ bankId: "SEB_LT_SAND" })]);
  });

  test("the payer switches the country: the page shows that country's banks, and pays one of them", async ({
    page,
    request,
  }) => {
    const { reference } = await openCheckout(page, request, "country");
    const lithuanianOnly = page.getByRole("radio", { name: "Šiaulių bankas", exact: true });
    await expect(lithuanianOnly).toBeVisible();
    await page.getByLabel("Country of your bank").selectOption({ label: "Latvia" });
    await page.getByRole("button", { name: "Show this country's banks" }).click();
    await expect(lithuanianOnly).toHaveCount(0);
    await payWithBank(page, "Citadele");
    expect(await sandboxPayments(request, reference)).toEqual([
      expect.objectContaining({ bankId: "CITADELE_LV_SAND" }),
    ]);
  });

  test("the payer searches the banks: the page shows those that match, and pays one of them", async ({
    page,
    request,
  }) => {
    const { reference } = await openCheckout(page, request, "search");
    const banks = page.getByRole("radiogroup", { name: "Your bank" });
    const box = page.getByRole("searchbox", { name: "Search banks" });
    const search = async (text: string) => {
      await box.fill(text);
      await page.getByRole("button", { name: "Search banks" }).click();
    };
    await search("šiaul");
    await expect(banks.getByRole("radio")).toHaveCount(1);
    await expect(box).toHaveValue("šiaul");

    // A search that finds nothing says so, and an empty one brings the whole list back.
    await search("no such bank");
    await expect(page.getByText("No bank matches “no such bank”.")).toBeVisible();
    await search("");
    await expect(banks.getByRole("radio", { name: "Swedbank", exact: true })).toBeVisible();

    await box.fill("siauliu");
    await box.press("Enter");
    await expect(banks.getByRole("radio")).toHaveCount(1);
    await payWithBank(page, "Šiaulių bankas");
    expect(await sandboxPayments(request, reference)).toEqual([expect.objectContaining({ bankId: "SIAULIU_LT_SAND" })]);
  });

  test("paid on the phone through the QR code, the computer's page offers to show it, and does", async ({
    page,
    request,
    browser,
  }, info) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    const { id } = await openCheckout(page, request, "qr");
    await expect(page.getByRole("img", { name: "Scan to pay on your phone" })).toBeVisible();

    const { phone } = await approveOnPhone(browser, info.project.use.baseURL, id);
    await expect.poll(async () => (await merchantView(request, id)).status, { timeout: 15_000 }).toBe("paid");
    await phone.close();

    await page.getByRole("link", { name: "Paid on your phone? Show it here" }).click();
    await expect(page.getByRole("heading", { name: "This order is already paid" })).toBeVisible();
    await expect(page.getByRole("button", { name: /^Pay/ })).toHaveCount(0);
  });

  test("back from the bank, the payer chooses another bank: the unfinished payment stops and the new one goes through", async ({
    page,
    request,
  }) => {
    const { reference } = await openCheckout(page, request, "another");
    await payWithBank(page, "SEB");
    await page.goBack();
    await expect(page.getByRole("heading", { name: "Your payment is in progress" })).toBeVisible();
    await page.getByRole("button", { name: "Choose another bank" }).click();
    await expect(page.getByText("The unfinished payment was stopped. You can now choose another bank.")).toBeVisible();
    await payWithBank(page, "Luminor");
    const payments = await sandboxPayments(request, reference);
    expect(payments.map((p) => p.bankId).sort()).toEqual(["LUMINOR_LT_SAND", "SEB_LT_SAND"]);
  });

  test("a payment stopped, then cancelled at the bank: the landing says the order is not paid and leads back to pay", async ({
    page,
    request,
  }) => {
    const { id } = await openCheckout(page, request, "stopped");
    await payWithBank(page, "SEB");
    const bank = page.url();
    await page.goBack();
    await page.getByRole("button", { name: "Choose another bank" }).click();
    await expect(page.getByText("The unfinished payment was stopped.")).toBeVisible();
    // The bank's page was still open in another tab: the payer cancels there.
    await page.goto(bank);
    await decideAtBank(page, "Cancel");
    await page.waitForURL(new RegExp(`/checkout/${id}/return`));
    await expect(page.getByRole("heading", { level: 1, name: "This order is not paid yet" })).toBeVisible();
    await expect(page.getByText(/pay again/i)).toHaveCount(0);
    // Nothing will change by itself: nothing to check again.
    await expect(page.getByRole("link", { name: "Check again" })).toHaveCount(0);
    await page.getByRole("link", { name: "Go to payment" }).click();
    await expect(page.getByRole("button", { name: /^Pay/ })).toBeVisible();
  });

  test("the payer leaves the bank or the card to the provider's page", async ({ page, request }) => {
    const { reference } = await openCheckout(page, request, "hosted");
    await page.getByRole("radio", { name: "Choose my bank on the next page" }).check();
    await page.getByLabel("Country of your bank").selectOption({ label: "Latvia" });
    await page.getByRole("button", { name: /^Pay/ }).click();
    await expect(page.getByRole("heading", { name: "Choose your bank" })).toBeVisible();
    await expect(page.getByRole("combobox", { name: "Country" })).toHaveValue("LV");
    expect(await sandboxPayments(request, reference)).toEqual([expect.objectContaining({ bankId: null })]);

    const byCard = `nojs-card-${Date.now()}`;
    const second = await createCheckout(request, { reference: byCard });
    await page.goto(`/checkout/${second}?lang=en`);
    await page.getByRole("radio", { name: "Pay by card" }).check();
    await page.getByRole("button", { name: /^Pay/ }).click();
    await page.waitForURL(/localhost:\d+\/login\//);
    expect(await sandboxPayments(request, byCard)).toEqual([expect.objectContaining({ method: "card" })]);
  });
});
