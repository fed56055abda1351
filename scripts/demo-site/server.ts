/**
 * The demo merchant site (sandbox mode, `npm start`): the shop's own checkout page on another
 * origin, with the bank picker embedded by embed.js (issue 20). It is what a merchant writes: its
 * backend creates the checkout over our API with its key, through the typed client merchants get
 * (clients/typescript), its page holds two lines of HTML, and the thanks page asks our API how the
 * payment ended. Plain node:http on purpose: it needs nothing of the app but its settings.
 */
import { randomBytes } from "node:crypto";
import { createServer, type ServerResponse } from "node:http";
import { BankCheckout, BankCheckoutError } from "../../clients/typescript/src/index";
import { isCheckoutId } from "../../lib/checkout/ids";
import { loadEnv } from "../../lib/env";

const settings = loadEnv();
const port = settings.embedDemoPort;
const site = `http://localhost:${port}`;
// Sandbox mode always has a key (dev-merchant-key unless MERCHANT_API_KEY says otherwise).
if (!settings.merchantApiKey) throw new Error("demo site: MERCHANT_API_KEY is not set");
const api = new BankCheckout({ baseUrl: settings.appUrl, apiKey: settings.merchantApiKey });

const escape = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

function page(res: ServerResponse, status: number, title: string, body: string) {
  res.writeHead(status, { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" });
  res.end(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)} · Northwind Goods</title>
<style>
  body { font: 16px/1.5 system-ui, sans-serif; margin: 0; background: #fff; color: #1f2328; }
  header { background: #1b4332; color: #fff; padding: 0.75rem 1rem; }
  main { max-width: 36rem; margin: 0 auto; padding: 1rem; }
  .basket { border: 1px solid #d0d7de; border-radius: 8px; padding: 0.75rem 1rem; }
  .basket p { display: flex; justify-content: space-between; margin: 0.25rem 0; }
  #events { font-size: 0.875rem; color: #57606a; }
</style>
</head>
<body>
<header><strong>Northwind Goods</strong> · a demo merchant on another site</header>
<main>
${body}
</main>
</body>
</html>`);
}

const LOCALES = ["en", "lt", "lv", "et"] as const;
const isLocale = (s: string | null): s is (typeof LOCALES)[number] => LOCALES.some((l) => l === s);

async function checkoutPage(res: ServerResponse, lang: (typeof LOCALES)[number] | null) {
  let id: string;
  try {
    ({ id } = await api.checkouts.create({
      amount: "24.90",
      currency: "EUR",
      description: "Northwind Goods order",
      reference: `nw-${randomBytes(5).toString("hex")}`,
      returnUrl: `${site}/thanks`,
      country: "LT",
      ...(lang ? { locale: lang } : {}),
    }));
  } catch (error) {
    if (!(error instanceof BankCheckoutError)) throw error;
    return page(res, 502, "Checkout", `<p>Could not create the checkout (${escape(error.code)}).</p>`);
  }
  page(
    res,
    200,
    "Checkout",
    `<h1>Checkout</h1>
<section class="basket" aria-label="Your order">
  <p><span>Wool blanket</span><span>€24.90</span></p>
  <p><strong>Total</strong><strong>€24.90</strong></p>
</section>
<h2>Payment</h2>
<div id="pay" data-bank-checkout="${escape(id)}"${lang ? ` data-locale="${escape(lang)}"` : ""}></div>
<script src="${escape(settings.appUrl)}/embed.js" async></script>
<h2>What the picker told this page</h2>
<ol id="events" aria-live="polite"></ol>
<script>
  document.getElementById("pay").addEventListener("bank-checkout", function (e) {
    var li = document.createElement("li");
    li.textContent = e.detail.type + (e.detail.bankName ? ": " + e.detail.bankName : "") +
      (e.detail.height ? " (" + e.detail.height + "px)" : "") + (e.detail.code ? ": " + e.detail.code : "");
    document.getElementById("events").append(li);
  });
</script>`,
  );
}

async function thanksPage(res: ServerResponse, id: string | null) {
  if (!id || !isCheckoutId(id)) return page(res, 400, "Thanks", "<p>No checkout named.</p>");
  const status = await api.checkouts.get(id).then(
    (checkout) => checkout.status,
    (error: unknown) => {
      if (error instanceof BankCheckoutError) return "unknown";
      throw error;
    },
  );
  page(
    res,
    200,
    "Thanks",
    `<h1>${status === "paid" ? "Thank you, your order is paid" : "Your order is not paid yet"}</h1>
<p>Payment status: <strong id="status">${escape(status)}</strong></p>
<p><a href="/">Buy again</a></p>`,
  );
}

createServer((req, res) => {
  const url = new URL(req.url ?? "/", site);
  const lang = url.searchParams.get("lang");
  const answer =
    url.pathname === "/"
      ? checkoutPage(res, isLocale(lang) ? lang : null)
      : url.pathname === "/thanks"
        ? thanksPage(res, url.searchParams.get("checkout"))
        : Promise.resolve(page(res, 404, "Not found", "<p>Not found.</p>"));
  answer.catch((err: unknown) => {
    console.error("demo site:", err);
    if (!res.headersSent) page(res, 502, "Error", "<p>The checkout app could not be reached.</p>");
  });
}).listen(port, () => console.log(`demo merchant site (embedded bank picker) on ${site}`));
