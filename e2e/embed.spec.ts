import { createServer, type Server } from "node:http";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { expectNoAxeViolations } from "./axe";
import { createCheckout, decideAtBank, merchantView } from "./journey";

// The drop-in bank picker (issue 20). The demo merchant site runs beside the app on another
// origin (another port). The pages made up here are served by a server of this file's own, on a
// port EMBED_ORIGINS allows as http://localhost and not as http://127.0.0.1 (another origin). A
// real server, not page.route: Chromium lets no page without an address frame a local one.
const APP = process.env.E2E_APP_URL ?? "http://localhost:3100";
const SHOP = process.env.E2E_DEMO_SITE_URL ?? "http://localhost:3102";
const TEST_PORT = Number(process.env.E2E_EMBED_TEST_PORT ?? 3103);
const MERCHANT = `http://localhost:${TEST_PORT}`;
const OTHER = `http://127.0.0.1:${TEST_PORT}`;

const pages = new Map<string, string>();
let server: Server;
test.beforeAll(async () => {
  server = createServer((req, res) => {
    const html = pages.get(req.url ?? "");
    res.writeHead(html ? 200 : 404, { "Content-Type": "text/html; charset=utf-8" });
    res.end(html ? `<!doctype html><html lang="en">${html}</html>` : "not found");
  });
  await new Promise<void>((resolve) => server.listen(TEST_PORT, "127.0.0.1", resolve));
});
test.afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const picker = (page: Page) => page.frameLocator('iframe[title="Pay by bank"]');
const frameHeight = async (page: Page) => (await page.locator('iframe[title="Pay by bank"]').boundingBox())!.height;

/** Serves this HTML at `path` on the test's server (either origin). */
const serve = (path: string, html: string) => void pages.set(path, html);

/** Presses Tab until `target` has the focus, as a keyboard user would. */
async function tabTo(page: Page, target: Locator) {
  for (let i = 0; i < 40; i++) {
    if (await target.evaluate((el) => el === document.activeElement && document.hasFocus()).catch(() => false)) return;
    await page.keyboard.press("Tab");
  }
  throw new Error(`Tab never reached ${target}`);
}

test("a merchant page on another origin embeds the picker, and the payer pays through it", async ({
  page,
  request,
}) => {
  await page.goto(SHOP);
  const frame = picker(page);
  await expect(frame.getByRole("radio", { name: "Swedbank", exact: true })).toBeVisible();
  // The merchant's page keeps its own order summary; the frame holds only the picker.
  await expect(frame.getByRole("heading", { name: "Pay by bank" })).toBeVisible();
  await expect(frame.getByRole("group", { name: /How would you like to pay/ })).toHaveCount(0);
  await expect(page.locator("#events")).toContainText("ready");
  await expectNoAxeViolations(page);

  await frame.getByRole("radio", { name: "Šiaulių bankas" }).check();
  await expect(page.locator("#events")).toContainText("bank-selected: Šiaulių bankas");
  await frame.getByRole("checkbox", { name: /Terms and Conditions/ }).check();
  await frame.getByRole("button", { name: /^Pay/ }).click();

  // The whole window goes to the bank, not the frame.
  await page.waitForURL(/localhost:\d+\/login\//);
  await expect(page.getByRole("heading", { name: "Log in to Šiaulių bankas" })).toBeVisible();
  await decideAtBank(page, "Approve");
  await page.waitForURL(/\/checkout\/co_[\w-]+\/return/);
  const checkoutId = new URL(page.url()).pathname.split("/")[2]!;
  await expect(page.getByRole("heading", { name: "Payment received" })).toBeVisible();
  await page.getByRole("link", { name: "Return to the shop" }).click();
  await expect(page).toHaveURL(new RegExp(`^${SHOP}/thanks\\?checkout=${checkoutId}`));
  await expect(page.getByRole("heading", { name: "Thank you, your order is paid" })).toBeVisible();
  expect((await merchantView(request, checkoutId)).status).toBe("paid");
});

test("the frame takes the height of its content as the bank list shrinks and grows", async ({ page }) => {
  await page.goto(SHOP);
  const frame = picker(page);
  await expect(frame.getByRole("radio")).toHaveCount(6);
  await expect.poll(() => frameHeight(page)).toBeGreaterThan(400);
  const full = await frameHeight(page);

  await frame.getByRole("searchbox", { name: "Search banks" }).fill("swed");
  await expect(frame.getByRole("radio")).toHaveCount(1);
  await expect.poll(() => frameHeight(page)).toBeLessThan(full - 100);

  await frame.getByRole("searchbox", { name: "Search banks" }).fill("");
  await expect(frame.getByRole("radio")).toHaveCount(6);
  await expect.poll(() => frameHeight(page)).toBeGreaterThanOrEqual(full - 4);
  // No scroll bar inside the frame: all of it is on the merchant's page.
  await expect
    .poll(() => frame.locator("html").evaluate((html) => html.scrollHeight <= window.innerHeight + 1))
    .toBe(true);
});

test("a payer pays through the embedded picker with the keyboard alone", async ({ page }) => {
  await page.goto(SHOP);
  const frame = picker(page);
  const first = frame.getByRole("radio", { name: "Swedbank", exact: true });
  await expect(first).toBeVisible();

  await tabTo(page, first);
  await page.keyboard.press("ArrowDown");
  await expect(frame.getByRole("radio", { name: "SEB", exact: true })).toBeChecked();
  await tabTo(page, frame.getByRole("checkbox", { name: /Terms and Conditions/ }));
  await page.keyboard.press("Space");
  await tabTo(page, frame.getByRole("button", { name: /^Pay/ }));
  await page.keyboard.press("Enter");
  await page.waitForURL(/localhost:\d+\/login\//);
  await expect(page.getByRole("heading", { name: "Log in to SEB" })).toBeVisible();
});

test("only the configured origins may frame the picker, and no one frames the checkout page", async ({
  page,
  request,
}) => {
  const checkoutId = await createCheckout(request);
  const refusals: string[] = [];
  page.on("console", (m) => {
    if (/frame-ancestors/.test(m.text())) refusals.push(m.text());
  });

  serve(
    "/elsewhere",
    `<title>Elsewhere</title><iframe title="Pay by bank" src="${APP}/checkout/${checkoutId}/embed"></iframe>`,
  );
  await page.goto(`${OTHER}/elsewhere`);
  await expect.poll(() => refusals.length).toBeGreaterThan(0);
  expect(refusals[0]).toContain(MERCHANT);
  await expect(picker(page).getByRole("radio")).toHaveCount(0);

  // The merchant's own origin may frame the picker, but not the full checkout page.
  refusals.length = 0;
  serve("/full-page", `<title>Shop</title><iframe title="Pay by bank" src="${APP}/checkout/${checkoutId}"></iframe>`);
  await page.goto(`${MERCHANT}/full-page`);
  await expect.poll(() => refusals.length).toBeGreaterThan(0);
  expect(refusals[0]).toContain("'none'");
  await expect(picker(page).getByRole("radio")).toHaveCount(0);
});

test("the merchant's page ignores messages that do not come from the picker's frame", async ({ page, request }) => {
  const checkoutId = await createCheckout(request);
  const events: { type: string; height?: number }[] = [];
  await page.exposeFunction("recordEvent", (e: { type: string; height?: number }) => events.push(e));
  // A window of another origin, and the merchant's page itself, post what looks like our events.
  const forge = `function forge(target) {
      target.postMessage({ source: "bank-checkout", type: "redirecting" }, "*");
      target.postMessage({ source: "bank-checkout", type: "resize", height: 3000 }, "*");
    }`;
  serve("/forger", `<title>Forger</title><script>${forge}; setInterval(() => forge(parent), 200);</script>`);
  serve(
    "/forged",
    `<title>Shop</title><main><h1>Shop</h1><div id="pay"></div></main>
    <iframe title="Advert" src="${OTHER}/forger"></iframe>
    <script>${forge}; setInterval(() => forge(window), 200);</script>
    <script src="${APP}/embed.js" onload="BankCheckout.mount(document.getElementById('pay'), { checkoutId: '${checkoutId}', onEvent: recordEvent })"></script>`,
  );
  await page.goto(`${MERCHANT}/forged`);
  await expect(picker(page).getByRole("radio", { name: "Swedbank", exact: true })).toBeVisible();
  await expect.poll(() => events.map((e) => e.type)).toContain("ready");
  await expect.poll(() => events.filter((e) => e.type === "resize").length).toBeGreaterThan(0);
  await page.waitForTimeout(1000); // several rounds of forgeries
  expect(events.map((e) => e.type)).not.toContain("redirecting");
  expect(events.some((e) => e.height === 3000)).toBe(false);
  expect(await frameHeight(page)).toBeLessThan(2000);
});

test("a payment already at the bank shows in the frame, and its status opens in the whole window", async ({
  page,
  request,
}) => {
  const checkoutId = await createCheckout(request);
  const start = await request.post(`/api/checkouts/${checkoutId}/payments`, {
    data: { method: "bank", bankId: "SWEDBANK_LT_SAND", termsAccepted: true, attemptKey: `embed-${Date.now()}` },
  });
  expect(start.status()).toBe(200);
  serve(
    "/in-flight",
    `<title>Shop</title><main><h1>Shop</h1><div data-bank-checkout="${checkoutId}"></div></main><script src="${APP}/embed.js" async></script>`,
  );
  await page.goto(`${MERCHANT}/in-flight`);
  const frame = picker(page);
  await expect(frame.getByRole("heading", { name: "Your payment is in progress" })).toBeVisible();
  await frame.getByRole("link", { name: /check status/ }).click();
  // Our status page is never framed: it replaces the merchant's page.
  await page.waitForURL(`${APP}/checkout/${checkoutId}/return`);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
});

test("when the provider answers slowly, the payer still reaches the bank from the frame", async ({ page, request }) => {
  test.setTimeout(60_000);
  const sandbox = process.env.SANDBOX_URL ?? "http://localhost:3101";
  const setFault = async (fault: Record<string, unknown>) =>
    expect((await request.post(`${sandbox}/_sandbox/faults`, { data: fault })).status()).toBe(200);
  const checkoutId = await createCheckout(request);
  serve(
    "/slow",
    `<title>Shop</title><main><h1>Shop</h1><div data-bank-checkout="${checkoutId}"></div></main><script src="${APP}/embed.js" async></script>`,
  );
  await page.goto(`${MERCHANT}/slow`);
  const frame = picker(page);
  await frame.getByRole("radio", { name: "Swedbank", exact: true }).check();
  await frame.getByRole("checkbox", { name: /Terms and Conditions/ }).check();
  // Longer than a click's transient activation (5 s): a browser may then refuse the frame's move
  // of the whole window (Chromium here allows it), and the frame offers the link to click instead.
  await setFault({ mode: "slow", delayMs: 7_000, paths: ["/pis/payment"], methods: ["POST"], count: 1 });
  try {
    await frame.getByRole("button", { name: /^Pay/ }).click();
    const link = frame.getByRole("link", { name: "Continue to your bank" });
    // Whichever comes first; the other one then fails quietly (the frame is gone, or never leaves).
    const left = page
      .waitForURL(/localhost:\d+\/login\//, { timeout: 25_000 })
      .then(() => "left" as const)
      .catch(() => "neither" as const);
    const offered = link
      .waitFor({ timeout: 25_000 })
      .then(() => "offered" as const)
      .catch(() => "neither" as const);
    if ((await Promise.race([left, offered])) === "offered") await link.click();
  } finally {
    await setFault({ mode: "none" });
  }
  await page.waitForURL(/localhost:\d+\/login\//);
  await expect(page.getByRole("heading", { name: "Log in to Swedbank" })).toBeVisible();
});

test("embed.js is small, cacheable, and names its version", async ({ request }) => {
  const res = await request.get(`${APP}/embed.js`, { headers: { "Accept-Encoding": "identity" } });
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toMatch(/^text\/javascript/);
  const etag = res.headers()["etag"]!;
  expect(etag).toMatch(/^"[\w-]{16}"$/);
  expect(res.headers()["cache-control"]).toContain("max-age=3600");
  expect((await request.get(`${APP}/embed.js`, { headers: { "If-None-Match": etag } })).status()).toBe(304);
  const pinned = await request.get(`${APP}/embed.js?v=${etag.slice(1, -1)}`);
  expect(pinned.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
});
