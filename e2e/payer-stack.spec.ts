import { readFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { LOCALES, messages } from "../lib/i18n";
import { COMPILE_HINT } from "../scripts/build";
import { expectNoAxeViolations } from "./axe";
import {
  approveOnPhone,
  createCheckout,
  decideAtBank,
  forceProviderStatus,
  merchantView,
  payWithBank,
} from "./journey";

// Issue 16: the payer's pages on react-query and react-hook-form, phone first.

/** Requests the page makes to a path, counted from now on. */
function countRequests(page: Page, pattern: RegExp) {
  const seen: string[] = [];
  page.on("request", (r) => {
    if (pattern.test(new URL(r.url()).pathname + new URL(r.url()).search)) seen.push(r.url());
  });
  return seen;
}

test.describe("on a phone (390×844)", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("the first bank, the amount and the payee are on the first screen; Terms and Pay one scroll away; the payer pays", async ({
    page,
    request,
  }) => {
    const checkoutId = await createCheckout(request, { description: "Two books and a mug" });
    await page.goto(`/checkout/${checkoutId}?lang=en`);

    const within = async (name: string, locator: ReturnType<Page["locator"]>, bottomMax: number) => {
      const box = await locator.boundingBox();
      expect(box, name).not.toBeNull();
      expect(box!.y, `${name} top`).toBeGreaterThanOrEqual(0);
      expect(box!.y + box!.height, `${name} bottom`).toBeLessThanOrEqual(bottomMax);
    };
    const firstBank = page.getByRole("radiogroup", { name: /bank/i }).getByRole("radio").first();
    await within("first bank", firstBank.locator("xpath=ancestor::label[1]"), 844);
    await within("amount", page.getByTestId("order-amount"), 844);
    await within("payee", page.getByRole("region", { name: "Order summary" }).getByText("Demo Shop UAB"), 844);
    await within("Terms", page.getByRole("checkbox", { name: /Terms and Conditions/ }), 2 * 844);
    await within("Pay", page.getByRole("button", { name: /^Pay/ }), 2 * 844);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    await expectNoAxeViolations(page);

    await payWithBank(page);
    await decideAtBank(page, "Approve");
    await expect(page.getByRole("heading", { name: "Payment received" })).toBeVisible();
  });

  // Each size and weight on screen is a font the browser sets up before the first paint (ADR 12,
  // "Few font sizes"): the checkout and the landing keep to 14, 16 and 22 px, regular and 600.
  test("the checkout and the landing set their text in three sizes and two weights", async ({ page, request }) => {
    const checkoutId = await createCheckout(request);
    for (const path of [`/checkout/${checkoutId}`, `/checkout/${checkoutId}/return`]) {
      await page.goto(`${path}?lang=en`);
      await expect(page.locator("h1")).toBeVisible();
      const fonts = await page.evaluate(() => {
        const seen = new Set<string>();
        for (const el of document.body.querySelectorAll<HTMLElement>("*")) {
          const text =
            [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim()) ||
            el.matches("input, select, button");
          if (!text || el.closest("script, style, noscript, template") || !el.getClientRects().length) continue;
          const style = getComputedStyle(el);
          seen.add(`${style.fontSize} ${style.fontWeight}`);
        }
        return [...seen].sort();
      });
      expect(fonts, path).toEqual(["14px 400", "14px 600", "16px 400", "16px 600", "22px 600"]);
    }
  });
});

test("the bank list comes with the page, is not fetched again on load, and each other country once", async ({
  page,
  request,
}) => {
  const checkoutId = await createCheckout(request);
  const banks = countRequests(page, /^\/api\/banks/);
  await page.goto(`/checkout/${checkoutId}?lang=en`);
  await expect(page.getByRole("radio", { name: "Swedbank", exact: true })).toBeVisible();
  await page.waitForLoadState("networkidle");
  expect(banks).toEqual([]);

  // Reaching for the country switch fetches the other countries ahead; choosing one then needs
  // no request, and coming back to the first needs none either.
  const country = page.getByLabel("Country of your bank");
  await country.focus();
  await expect.poll(() => banks.length).toBeGreaterThan(0);
  await page.waitForLoadState("networkidle");
  const prefetched = banks.length;
  expect(new Set(banks).size).toBe(prefetched);
  expect(banks.some((u) => u.includes("country=LT"))).toBe(false);
  await country.selectOption("LV");
  await expect(page.getByRole("radiogroup", { name: /bank/i }).getByRole("radio").first()).toBeVisible();
  await country.selectOption("LT");
  await expect(page.getByRole("radio", { name: "Swedbank", exact: true })).toBeVisible();
  await page.waitForLoadState("networkidle");
  expect(banks).toHaveLength(prefetched);
});

test("the stylesheet comes once, in the page's HTML, ahead of any CSS module, and stays when the page goes live", async ({
  page,
  request,
}) => {
  const checkoutId = await createCheckout(request);
  const html = await (await request.get(`/checkout/${checkoutId}?lang=en`)).text();
  // Through a CSS import with inlineCss it came three times: in the HTML, and for the root layout
  // and global-error in the RSC data (ADR 12).
  expect(html.split(":root{--font:").length - 1).toBe(1);
  expect(html).not.toContain('rel="stylesheet"');

  // React, live, keeps the server's text: the Pay button is still the primary blue.
  await page.goto(`/checkout/${checkoutId}?lang=en`);
  await expect(page.getByRole("radio", { name: "Swedbank", exact: true })).toBeEnabled();
  await page.waitForLoadState("networkidle");
  const pay = page.getByRole("button", { name: /^Pay/ });
  await expect(pay).toHaveCSS("background-color", "rgb(29, 78, 216)");
  expect(await page.locator("head style[data-href=site]").evaluate((s) => s.textContent?.length)).toBeGreaterThan(5000);

  // The back office's CSS modules build on it, so it comes first.
  await page.goto("/backoffice/login");
  const order = await page
    .locator("head style")
    .evaluateAll((styles) => styles.map((s) => s.getAttribute("data-precedence")));
  expect(order).toEqual(["site", "next"]);
  await expect(page.getByRole("button", { name: "Sign in", exact: true })).toHaveCSS(
    "background-color",
    "rgb(29, 78, 216)",
  );
});

test("the framework's scripts ask the browser to compile them while they download, and the page's own do not", async ({
  request,
}) => {
  const checkoutId = await createCheckout(request);
  for (const pagePath of [`/checkout/${checkoutId}`, `/checkout/${checkoutId}/return`]) {
    const html = await (await request.get(`${pagePath}?lang=en`)).text();
    const scripts = [...html.matchAll(/<script src="(\/_next\/static\/chunks\/[^"]+\.js)"(?![^>]*noModule)/g)].map(
      (m) => m[1]!,
    );
    const served = await Promise.all(
      scripts.map(async (src) => ({ src, code: await (await request.get(src)).text() })),
    );
    const hinted = served.filter((s) => s.code.startsWith(COMPILE_HINT)).map((s) => s.src);

    // Exactly the chunks every page runs at load (scripts/build.ts), React DOM the largest of them.
    const manifest = JSON.parse(readFileSync(new URL("../.next/build-manifest.json", import.meta.url), "utf8")) as {
      rootMainFiles: string[];
    };
    expect(hinted.sort()).toEqual(manifest.rootMainFiles.map((f) => `/_next/${f}`).sort());
    const largest = served.reduce((a, b) => (b.code.length > a.code.length ? b : a));
    expect(hinted).toContain(largest.src);
    expect(served.length).toBeGreaterThan(hinted.length);
  }
});

test("the form's rules are fetched when the payer reaches for the form, not while the page comes up", async ({
  page,
  request,
}) => {
  const checkoutId = await createCheckout(request);
  const scripts = countRequests(page, /^\/_next\/static\/chunks\/.+\.js$/);
  await page.goto(`/checkout/${checkoutId}?lang=en`);
  await expect(page.getByRole("radio", { name: "Swedbank", exact: true })).toBeVisible();
  await page.waitForLoadState("networkidle");
  await page.waitForTimeout(1000);
  const withPage = scripts.length;

  // Evaluating zod is a long task on a phone: it waits for the payer's first move.
  await page.getByLabel("Search banks").focus();
  await expect.poll(() => scripts.length).toBeGreaterThan(withPage);
  await page.getByLabel("Search banks").blur();
  await page.getByRole("button", { name: /^Pay/ }).click();
  await expect(page.locator("#bank-error")).toHaveText(messages("en")["errors.bank"]);
});

test("the landing keeps polling after the tab comes back from the background, and stops on a final status", async ({
  page,
  request,
}) => {
  const checkoutId = await createCheckout(request);
  await page.goto(`/checkout/${checkoutId}?lang=en`);
  await payWithBank(page);
  const paymentId = /\/login\/([^/?]+)/.exec(page.url())![1]!;

  // The payer comes back before deciding (the bank app is still open): the status is pending.
  const polls = countRequests(page, new RegExp(`^/api/checkouts/${checkoutId}/status`));
  await page.goto(`/checkout/${checkoutId}/return?lang=en`);
  await expect(page.getByRole("heading", { name: "Confirming your payment…" })).toBeVisible();
  await expect.poll(() => polls.length, { timeout: 10_000 }).toBeGreaterThan(0);

  // The tab goes to the background: no polling while hidden.
  const setVisibility = (state: "hidden" | "visible") =>
    page.evaluate((s) => {
      Object.defineProperty(document, "visibilityState", { configurable: true, get: () => s });
      Object.defineProperty(document, "hidden", { configurable: true, get: () => s === "hidden" });
      document.dispatchEvent(new Event("visibilitychange", { bubbles: true }));
    }, state);
  await setVisibility("hidden");
  await page.waitForTimeout(500);
  const whileHidden = polls.length;
  await forceProviderStatus(request, paymentId, { bankStatus: "ACSC" });
  await page.waitForTimeout(4000);
  expect(polls.length).toBe(whileHidden);
  await expect(page.getByRole("heading", { name: "Payment received" })).toHaveCount(0);

  // Back in the tab: it asks at once, shows the outcome, and asks no more.
  await setVisibility("visible");
  await expect(page.getByRole("heading", { name: "Payment received" })).toBeVisible({ timeout: 5000 });
  const atFinal = polls.length;
  await page.waitForTimeout(5000);
  expect(polls.length).toBe(atFinal);
  expect((await merchantView(request, checkoutId)).status).toBe("paid");
});

for (const locale of LOCALES) {
  test(`the payment form names each missing field in its own language (${locale})`, async ({ page, request }) => {
    const t = messages(locale);
    const checkoutId = await createCheckout(request);
    await page.goto(`/checkout/${checkoutId}?lang=${locale}`);
    await page.getByRole("button", { name: t["pay.button"].split("{")[0]!.trim() }).click();

    const summary = page.getByRole("alert", { name: t["errors.label"] });
    await expect(summary).toContainText(t["errors.bank"]);
    await expect(summary).toContainText(t["errors.terms"]);
    await expect(page.locator("#bank-error")).toHaveText(t["errors.bank"]);
    await expect(page.locator("#terms-error")).toHaveText(t["errors.terms"]);
    // Fixing a field clears its error at once.
    await page.locator("#terms").check();
    await expect(page.locator("#terms-error")).toHaveCount(0);
    await expect(summary).not.toContainText(t["errors.terms"]);
  });
}

test.describe("on a computer (1280×800)", () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test("paid on the phone through the QR code, the computer's page shows it paid by itself", async ({
    page,
    request,
    browser,
  }) => {
    const checkoutId = await createCheckout(request);
    await page.goto(`/checkout/${checkoutId}?lang=en`);
    await expect(page.getByRole("img", { name: "Scan to pay on your phone" })).toBeVisible();

    const { phone, page: phonePage } = await approveOnPhone(browser, test.info().project.use.baseURL, checkoutId);
    await expect(phonePage.getByRole("heading", { name: "Payment received" })).toBeVisible();
    await phone.close();

    await expect(page.getByRole("heading", { name: "This order is already paid" })).toBeVisible({ timeout: 15_000 });
    await expect(page.getByRole("button", { name: /^Pay/ })).toHaveCount(0);
  });
});
