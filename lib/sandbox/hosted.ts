import type { IncomingMessage, ServerResponse } from "node:http";
import { COUNTRIES, findBank, listBanks, testDebtorIban } from "./banks";
import type { SandboxContext } from "./context";
import { PageError, escapeHtml, header, readForm, redirect303, sendHtml } from "./http";
import { returnUrl, settlePayment } from "./payments";
import type { PaymentRecord } from "./store";

/**
 * The provider's hosted page, where the payer picks a bank, logs in to the test bank and approves
 * or cancels. Plain server-rendered HTML with POST forms and 303 redirects, so it works without
 * JavaScript and Back or reload never re-submits a step. All state is in the store, keyed by
 * payment id (the confirmLink is the payer's only credential, as at the real provider).
 */

/** The test bank's login, shown on the page itself. */
export const TEST_BANK_LOGIN = { username: "test", password: "1234" } as const;

const DEFAULT_COUNTRY = "LT";
const LANGUAGE_COUNTRY: Readonly<Record<string, string>> = { lt: "LT", lv: "LV", et: "EE" };

/** The payer's likely country from Accept-Language (`lt-LT,lt;q=0.9,en;q=0.8`), if it has test banks. */
export function countryFromAcceptLanguage(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const ranked = value
    .split(",")
    .map((part, index) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry) => entry.tag !== "" && entry.q > 0)
    .sort((x, y) => y.q - x.q || x.index - y.index);
  for (const { tag } of ranked) {
    const [language = "", region] = tag.split("-");
    const fromRegion = region?.toUpperCase();
    if (fromRegion && fromRegion in COUNTRIES) return fromRegion;
    const fromLanguage = LANGUAGE_COUNTRY[language.toLowerCase()];
    if (fromLanguage) return fromLanguage;
  }
  return undefined;
}

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;color:#1a1a1a;background:#f4f5f7}
.banner{background:#7a2e00;color:#fff;padding:.5rem 1rem;text-align:center;font-size:.9rem}
.banner p{margin:0}
main{max-width:32rem;margin:1.5rem auto;padding:1.5rem;background:#fff;border-radius:12px;box-shadow:0 1px 3px rgba(0,0,0,.12)}
h1{font-size:1.5rem;margin:.25rem 0 1rem}
h2{font-size:1rem;margin:0 0 .5rem}
.step{margin:0;color:#4a4a4a;font-size:.9rem}
.order{border:1px solid #d6d8dc;border-radius:8px;padding:.75rem 1rem;margin-bottom:1.25rem}
.order dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem;margin:0}
.order dt{color:#4a4a4a}.order dd{margin:0;font-weight:600;overflow-wrap:anywhere}
label{display:block;font-weight:600;margin:.75rem 0 .25rem}
input[type=text],input[type=password],select{width:100%;min-height:44px;padding:.5rem .75rem;font:inherit;border:1px solid #6b6f76;border-radius:6px}
fieldset{border:0;margin:1rem 0 0;padding:0}
legend{font-weight:600;margin-bottom:.5rem}
.banks{list-style:none;margin:0;padding:0;display:grid;gap:.5rem}
.banks li{position:relative}
.banks label{display:flex;align-items:center;gap:.75rem;margin:0;padding:.5rem .75rem;min-height:52px;border:1px solid #d6d8dc;border-radius:8px;font-weight:500;cursor:pointer}
.banks input{position:absolute;opacity:0;width:1px;height:1px}
.banks input:checked+label{border:2px solid #1d4ed8;background:#eef2ff}
.banks input:focus-visible+label{outline:3px solid #1d4ed8;outline-offset:2px}
.country{display:flex;gap:.5rem;align-items:end}.country div{flex:1}
button{min-height:44px;padding:.5rem 1.25rem;font:inherit;font-weight:600;border-radius:8px;cursor:pointer;border:1px solid #1d4ed8;background:#fff;color:#1d4ed8}
button.primary{background:#1d4ed8;color:#fff}
button:focus-visible,a:focus-visible,input:focus-visible,select:focus-visible{outline:3px solid #1d4ed8;outline-offset:2px}
.actions{display:flex;flex-wrap:wrap;gap:.75rem;margin-top:1.25rem}.actions form{margin:0}
.hint{background:#fff8e1;border:1px solid #e0c36a;border-radius:8px;padding:.5rem .75rem}
.error{background:#fdecec;border:1px solid #b3261e;color:#8c1d18;border-radius:8px;padding:.5rem .75rem}
kbd{font:inherit;font-weight:700;background:#fff;border:1px solid #b9b9b9;border-radius:4px;padding:0 .3rem}
`;

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Sandbox bank payment</title>
<style>${STYLE}</style>
</head>
<body>
<header class="banner"><p><strong>Sandbox</strong>: test banks only, no real money moves.</p></header>
<main>
${body}
</main>
</body>
</html>`;
}

function orderSummary(payment: PaymentRecord): string {
  return `<section class="order" aria-labelledby="order-heading">
<h2 id="order-heading">Payment</h2>
<dl>
<dt>Amount</dt><dd>${escapeHtml(payment.amount)} ${escapeHtml(payment.currencyCode)}</dd>
<dt>Payee</dt><dd>${escapeHtml(payment.creditorName)}</dd>
<dt>Description</dt><dd>${escapeHtml(payment.description)}</dd>
</dl>
</section>`;
}

function postButton(action: string, label: string, primary = false): string {
  return `<form method="post" action="${escapeHtml(action)}"><button type="submit"${primary ? ' class="primary"' : ""}>${escapeHtml(label)}</button></form>`;
}

function stepLabel(payment: PaymentRecord, step: "bank" | "login" | "confirm"): string {
  const steps = payment.bankPreselected ? ["login", "confirm"] : ["bank", "login", "confirm"];
  return `<p class="step">Step ${steps.indexOf(step) + 1} of ${steps.length}</p>`;
}

function bankPage(payment: PaymentRecord, country: string, error: boolean): string {
  const base = `/login/${payment.id}`;
  const options = Object.entries(COUNTRIES)
    .map(([code, name]) => `<option value="${code}"${code === country ? " selected" : ""}>${escapeHtml(name)}</option>`)
    .join("");
  const banks = listBanks(country)
    .map(
      (bank) => `<li><input type="radio" name="bankId" id="bank-${escapeHtml(bank.id)}" value="${escapeHtml(bank.id)}" required>` +
        `<label for="bank-${escapeHtml(bank.id)}"><img src="/logos/${escapeHtml(bank.id)}.svg" alt="" width="32" height="32">${escapeHtml(bank.name)}</label></li>`,
    )
    .join("\n");
  return layout(
    "Choose your bank",
    `${stepLabel(payment, "bank")}
<h1>Choose your bank</h1>
${orderSummary(payment)}
<form method="get" action="${base}" class="country">
<div><label for="country">Country</label><select id="country" name="country">${options}</select></div>
<button type="submit">Show banks</button>
</form>
${error ? `<p class="error" role="alert">Choose a bank to continue.</p>` : ""}
<form method="post" action="${base}/bank">
<fieldset>
<legend>Banks in ${escapeHtml(COUNTRIES[country] ?? country)}</legend>
<ul class="banks">
${banks}
</ul>
</fieldset>
<div class="actions"><button type="submit" class="primary">Continue</button></div>
</form>
<div class="actions">${postButton(`${base}/cancel`, "Cancel")}</div>`,
  );
}

function loginPage(payment: PaymentRecord, error: boolean): string {
  const base = `/login/${payment.id}`;
  const bankName = findBank(payment.bankId ?? "")?.name ?? "your bank";
  const invalid = error ? ' aria-invalid="true"' : "";
  const describedBy = error ? "login-error test-credentials" : "test-credentials";
  return layout(
    `Log in to ${bankName}`,
    `${stepLabel(payment, "login")}
<h1>Log in to ${escapeHtml(bankName)}</h1>
${orderSummary(payment)}
<p class="hint" id="test-credentials">This is a test bank. Log in with username <kbd>${TEST_BANK_LOGIN.username}</kbd> and password <kbd>${TEST_BANK_LOGIN.password}</kbd>.</p>
${error ? `<p class="error" role="alert" id="login-error">Wrong username or password. Try again.</p>` : ""}
<form method="post" action="${base}/login">
<label for="username">Username</label>
<input type="text" id="username" name="username" autocomplete="username" required aria-describedby="${describedBy}"${invalid}>
<label for="password">Password</label>
<input type="password" id="password" name="password" autocomplete="current-password" required${invalid}>
<div class="actions"><button type="submit" class="primary">Log in</button></div>
</form>
<div class="actions">
${payment.bankPreselected ? "" : postButton(`${base}/change-bank`, "Choose another bank")}
${postButton(`${base}/cancel`, "Cancel")}
</div>`,
  );
}

function confirmPage(payment: PaymentRecord): string {
  const base = `/login/${payment.id}`;
  const bank = findBank(payment.bankId ?? "");
  return layout(
    "Confirm payment",
    `${stepLabel(payment, "confirm")}
<h1>Confirm payment</h1>
${orderSummary(payment)}
<p>Pay from your ${escapeHtml(bank?.name ?? "")} test account <strong>${escapeHtml(bank ? testDebtorIban(bank) : "")}</strong>.</p>
<div class="actions">
${postButton(`${base}/approve`, "Approve", true)}
${postButton(`${base}/cancel`, "Cancel")}
</div>`,
  );
}

function outcomePage(payment: PaymentRecord): string {
  const title = payment.statusGroup === "completed" ? "Payment approved" : "Payment cancelled";
  return layout(
    title,
    `<h1>${title}</h1>
${orderSummary(payment)}
<p>This payment is finished and cannot be changed.</p>
<p><a href="${escapeHtml(returnUrl(payment))}">Return to ${escapeHtml(payment.creditorName)}</a></p>`,
  );
}

export function errorPage(title: string): string {
  return layout(title, `<h1>${escapeHtml(title)}</h1>`);
}

function findPayment(ctx: SandboxContext, id: string): PaymentRecord {
  const payment = ctx.store.payments.get(id);
  if (!payment) throw new PageError(404, "Payment not found");
  return payment;
}

function show(ctx: SandboxContext, req: IncomingMessage, res: ServerResponse, payment: PaymentRecord, url: URL) {
  const lang = url.searchParams.get("lang")?.toLowerCase();
  // The PHP client appends its own lang to confirmLink; the last one given wins.
  if (lang && /^[a-z]{2}$/.test(lang)) payment.lang = lang;
  const error = url.searchParams.get("error");
  switch (payment.step) {
    case "bank": {
      const asked = url.searchParams.get("country")?.toUpperCase();
      const country = asked && asked in COUNTRIES ? asked : (countryFromAcceptLanguage(header(req, "accept-language")) ?? DEFAULT_COUNTRY);
      return sendHtml(res, 200, bankPage(payment, country, error === "bank"));
    }
    case "login":
      return sendHtml(res, 200, loginPage(payment, error === "credentials"));
    case "confirm":
      return sendHtml(res, 200, confirmPage(payment));
    case "done":
      return sendHtml(res, 200, outcomePage(payment));
  }
}

/** Applies one form post and answers with the 303 to the next page. */
async function act(ctx: SandboxContext, req: IncomingMessage, res: ServerResponse, payment: PaymentRecord, action: string) {
  const page = `/login/${payment.id}`;
  const form = await readForm(req);
  // A finished payment answers every action with the way back to the merchant, so a double click or
  // a re-submit after Back lands where the first click did, and never changes the outcome.
  if (payment.step === "done") return redirect303(res, returnUrl(payment));

  switch (action) {
    case "bank": {
      if (payment.step !== "bank") return redirect303(res, page);
      const bank = findBank(form.get("bankId") ?? "");
      if (!bank) return redirect303(res, `${page}?error=bank`);
      payment.bankId = bank.id;
      payment.step = "login";
      break;
    }
    case "change-bank":
      if (payment.step === "login" && !payment.bankPreselected) {
        delete payment.bankId;
        payment.step = "bank";
      }
      break;
    case "login": {
      if (payment.step !== "login") return redirect303(res, page);
      const ok = form.get("username") === TEST_BANK_LOGIN.username && form.get("password") === TEST_BANK_LOGIN.password;
      if (!ok) return redirect303(res, `${page}?error=credentials`);
      payment.step = "confirm";
      break;
    }
    case "approve":
      if (payment.step !== "confirm") return redirect303(res, page);
      settlePayment(ctx, payment, { kind: "approved" });
      return redirect303(res, returnUrl(payment));
    case "cancel":
      settlePayment(ctx, payment, { kind: "cancelled" });
      return redirect303(res, returnUrl(payment));
    default:
      throw new PageError(404, "Page not found");
  }
  payment.updatedAt = ctx.now();
  return redirect303(res, page);
}

/** Routes `/login/{paymentId}` (GET) and `/login/{paymentId}/{action}` (POST). */
export async function handleHosted(ctx: SandboxContext, req: IncomingMessage, res: ServerResponse, method: string, segments: string[], url: URL) {
  const [id, action, ...extra] = segments;
  if (id === undefined || extra.length > 0) throw new PageError(404, "Page not found");
  const payment = findPayment(ctx, id);
  if (method === "GET" && action === undefined) return show(ctx, req, res, payment, url);
  if (method === "POST" && action !== undefined) return act(ctx, req, res, payment, action);
  throw new PageError(404, "Page not found");
}
