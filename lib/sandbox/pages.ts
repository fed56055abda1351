import { COUNTRIES, findBank, isCountryCode, logoPath, type TestBank } from "./banks";
import { groupDigits, TEST_CARDS, TEST_OTP, type CardFormError } from "./cards";
import { escapeHtml } from "./http";
import { messages, type ErrorKey, type Messages } from "./i18n";

/**
 * The hosted pages' shared HTML: layout, order summary and the fragments both the payment and the
 * linking flow use. Plain server-rendered HTML with POST forms, so it works without JavaScript.
 * Colours meet WCAG AA contrast; every control has a label and a visible focus ring.
 */

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;color:#1a1a1a;background:#f4f5f7}
.banner{background:#7a2e00;color:#fff;padding:.5rem 1rem;text-align:center;font-size:.9rem}
.banner p{margin:0}
.bankbar{display:flex;align-items:center;gap:.75rem;padding:.6rem 1rem;color:#fff}
.bankbar strong{font-size:1.1rem}
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
.banks input:checked+label::after{content:"✓"/"";margin-left:auto;font-weight:700;color:#1d4ed8}
.banks input:focus-visible+label{outline:3px solid #1d4ed8;outline-offset:2px}
.choices{list-style:none;margin:0;padding:0;display:grid;gap:.5rem}
.choices label{display:flex;gap:.75rem;align-items:flex-start;margin:0;padding:.6rem .75rem;border:1px solid #d6d8dc;border-radius:8px;font-weight:500;cursor:pointer}
.choices input{margin-top:.3rem;width:1.1rem;height:1.1rem}
.choices span{display:block}.choices .iban{font-weight:400;color:#4a4a4a;font-size:.9rem}
.country{display:flex;gap:.5rem;align-items:end}.country div{flex:1}
button{min-height:44px;padding:.5rem 1.25rem;font:inherit;font-weight:600;border-radius:8px;cursor:pointer;border:1px solid #1d4ed8;background:#fff;color:#1d4ed8}
button.primary{background:#1d4ed8;color:#fff}
button.danger{border-color:#a4161a;color:#a4161a}
button:focus-visible,a:focus-visible,input:focus-visible,select:focus-visible{outline:3px solid #1d4ed8;outline-offset:2px}
a{color:#1d4ed8}
.actions{display:flex;flex-wrap:wrap;gap:.75rem;margin-top:1.25rem}.actions form{margin:0}
.hint{background:#fff8e1;border:1px solid #e0c36a;border-radius:8px;padding:.5rem .75rem}
.hint p{margin:0}.hint ul{margin:.25rem 0 0;padding-left:1.25rem}
.error{background:#fdecec;border:1px solid #b3261e;color:#8c1d18;border-radius:8px;padding:.5rem .75rem}
kbd{font:inherit;font-weight:700;background:#fff;border:1px solid #b9b9b9;border-radius:4px;padding:0 .3rem}
.row{display:flex;gap:.75rem}.row div{flex:1}
`;

export interface LayoutOptions {
  /** The page stands for the bank's own site (redirectPreferred): the bank's bar instead of the frame's steps. */
  bank?: TestBank | undefined;
  siteName?: string;
}

export function layout(m: Messages, title: string, body: string, opts: LayoutOptions = {}): string {
  const bankBar = opts.bank
    ? `<div class="bankbar" style="background:${opts.bank.colour}"><img src="${escapeHtml(logoPath(opts.bank))}" alt="" width="32" height="32"><strong>${escapeHtml(opts.bank.name)}</strong><span>${escapeHtml(m.testBankTag)}</span></div>`
    : "";
  return `<!doctype html>
<html lang="${m.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · ${escapeHtml(opts.siteName ?? m.siteName)}</title>
<style>${STYLE}</style>
</head>
<body>
<header><div class="banner"><p><strong>${escapeHtml(m.bannerStrong)}</strong>: ${escapeHtml(m.bannerText)}</p></div>${bankBar}</header>
<main>
${body}
</main>
</body>
</html>`;
}

export function orderSummary(
  m: Messages,
  order: { amount: string; currencyCode: string; creditorName: string; description: string },
): string {
  return `<section class="order" aria-labelledby="order-heading">
<h2 id="order-heading">${escapeHtml(m.paymentHeading)}</h2>
<dl>
<dt>${escapeHtml(m.amount)}</dt><dd>${escapeHtml(order.amount)} ${escapeHtml(order.currencyCode)}</dd>
<dt>${escapeHtml(m.payee)}</dt><dd>${escapeHtml(order.creditorName)}</dd>
<dt>${escapeHtml(m.description)}</dt><dd>${escapeHtml(order.description)}</dd>
</dl>
</section>`;
}

export function postButton(action: string, label: string, style: "primary" | "danger" | "" = ""): string {
  return `<form method="post" action="${escapeHtml(action)}"><button type="submit"${style ? ` class="${style}"` : ""}>${escapeHtml(label)}</button></form>`;
}

export function stepLabel(m: Messages, n: number, total: number): string {
  return `<p class="step">${escapeHtml(m.stepOf(n, total))}</p>`;
}

export function errorAlert(id: string, text: string): string {
  return `<p class="error" role="alert" id="${id}">${escapeHtml(text)}</p>`;
}

/**
 * The bank-choice form that the mobile SDKs' `/login/{id}/{bankId}/preview` stands for. A bank that
 * is unknown or not of the flow's country is left out, so the page answers as to an unknown bank.
 */
export function previewBankForm(bankId: string, countryCode: string | undefined): URLSearchParams {
  const bank = findBank(bankId);
  const fits = bank !== undefined && (countryCode === undefined || bank.countryCode === countryCode);
  return new URLSearchParams(fits ? { bankId } : {});
}

/** The bank choice: a GET form to switch country, and the banks of that country as radio buttons. */
export function bankChoice(
  m: Messages,
  opts: { stepUrl: string; action: string; country: string; banks: TestBank[]; error: boolean },
): string {
  const codes = Object.keys(COUNTRIES).includes(opts.country)
    ? Object.keys(COUNTRIES)
    : [...Object.keys(COUNTRIES), opts.country];
  const options = codes
    .map(
      (code) =>
        `<option value="${escapeHtml(code)}"${code === opts.country ? " selected" : ""}>${escapeHtml(m.countries[code] ?? code)}</option>`,
    )
    .join("");
  const banks = opts.banks
    .map(
      (bank) =>
        `<li><input type="radio" name="bankId" id="bank-${escapeHtml(bank.id)}" value="${escapeHtml(bank.id)}" required>` +
        `<label for="bank-${escapeHtml(bank.id)}"><img src="${escapeHtml(logoPath(bank))}" alt="" width="32" height="32">${escapeHtml(bank.name)}</label></li>`,
    )
    .join("\n");
  const list = opts.banks.length > 0 ? `<ul class="banks">\n${banks}\n</ul>` : `<p>${escapeHtml(m.noBanks)}</p>`;
  return `<form method="get" action="${escapeHtml(opts.stepUrl)}" class="country">
<div><label for="country">${escapeHtml(m.country)}</label><select id="country" name="country">${options}</select></div>
<button type="submit">${escapeHtml(m.showBanks)}</button>
</form>
${opts.error ? errorAlert("bank-error", m.chooseBankError) : ""}
<form method="post" action="${escapeHtml(opts.action)}">
<fieldset>
<legend>${escapeHtml(m.banksIn(m.countries[opts.country] ?? opts.country))}</legend>
${list}
</fieldset>
<div class="actions"><button type="submit" class="primary">${escapeHtml(m.continue)}</button></div>
</form>`;
}

/** The test bank's login form, with the test users on the page. */
export function loginForm(
  m: Messages,
  opts: {
    action: string;
    error: boolean;
    users: readonly { username: string; password: string; approvals: "complete" | "pending" }[];
  },
): string {
  const invalid = opts.error ? ' aria-invalid="true"' : "";
  const describedBy = opts.error ? "login-error test-credentials" : "test-credentials";
  const users = opts.users
    .map(
      (u) =>
        `<li><kbd>${escapeHtml(u.username)}</kbd> / <kbd>${escapeHtml(u.password)}</kbd>: ${escapeHtml(m.userHints[u.approvals])}</li>`,
    )
    .join("");
  return `<div class="hint" id="test-credentials"><p>${escapeHtml(m.testUsersHint)}</p><ul>${users}</ul></div>
${opts.error ? errorAlert("login-error", m.wrongLogin) : ""}
<form method="post" action="${escapeHtml(opts.action)}">
<label for="username">${escapeHtml(m.username)}</label>
<input type="text" id="username" name="username" autocomplete="username" required aria-describedby="${describedBy}"${invalid}>
<label for="password">${escapeHtml(m.password)}</label>
<input type="password" id="password" name="password" autocomplete="current-password" required${invalid}>
<div class="actions"><button type="submit" class="primary">${escapeHtml(m.logIn)}</button></div>
</form>`;
}

/** The test card form, with the test cards on the page; a mistake marks its field. */
export function cardForm(
  m: Messages,
  opts: { action: string; error: CardFormError | undefined; submit: string },
): string {
  const field = (id: string, label: string, attrs: string, errorFor: CardFormError[]) => {
    const invalid = opts.error !== undefined && errorFor.includes(opts.error);
    return `<div><label for="${id}">${escapeHtml(label)}</label><input type="text" id="${id}" name="${id}" ${attrs} required${invalid ? ' aria-invalid="true" aria-describedby="card-error"' : ""}></div>`;
  };
  const cards = TEST_CARDS.map(
    (c) => `<li><kbd>${groupDigits(c.number)}</kbd>: ${escapeHtml(m.cardBehaviours[c.behaviour])}</li>`,
  ).join("");
  return `<div class="hint"><p>${escapeHtml(m.testCardsHint)}</p><ul>${cards}</ul></div>
${opts.error ? errorAlert("card-error", m.cardErrors[opts.error]) : ""}
<form method="post" action="${escapeHtml(opts.action)}">
${field("number", m.cardNumber, 'autocomplete="cc-number" inputmode="numeric"', ["number", "unknown"])}
<div class="row">
${field("expiry", m.expiry, 'autocomplete="cc-exp"', ["expiry"])}
${field("cvc", m.cvc, 'autocomplete="cc-csc" inputmode="numeric"', ["cvc"])}
</div>
${field("name", m.cardName, 'autocomplete="cc-name"', ["name"])}
<div class="actions"><button type="submit" class="primary">${escapeHtml(opts.submit)}</button></div>
</form>`;
}

const CARD_FORM_ERRORS: readonly CardFormError[] = ["number", "unknown", "expiry", "cvc", "name"];

export function cardFormError(value: string | null): CardFormError | undefined {
  return CARD_FORM_ERRORS.find((e) => e === value);
}

/** The card issuer's one-time code step. */
export function otpForm(m: Messages, opts: { action: string; error: boolean }): string {
  const describedBy = opts.error ? "otp-error otp-hint" : "otp-hint";
  return `<p class="hint" id="otp-hint">${escapeHtml(m.otpHint(TEST_OTP))}</p>
${opts.error ? errorAlert("otp-error", m.wrongOtp) : ""}
<form method="post" action="${escapeHtml(opts.action)}">
<label for="otp">${escapeHtml(m.otp)}</label>
<input type="text" id="otp" name="otp" autocomplete="one-time-code" inputmode="numeric" required aria-describedby="${describedBy}"${opts.error ? ' aria-invalid="true"' : ""}>
<div class="actions"><button type="submit" class="primary">${escapeHtml(m.confirm)}</button></div>
</form>`;
}

/** A link that can no longer be used: opened before, expired, or its payment already finished. */
export function gonePage(m: Messages, reason: "used" | "expired" | "finished", continueUrl?: string): string {
  const title =
    reason === "used" ? m.linkUsedTitle : reason === "expired" ? m.linkExpiredTitle : m.paymentFinishedTitle;
  const body = reason === "used" ? m.linkUsedBody : reason === "expired" ? m.linkExpiredBody : m.backToShop;
  const next = continueUrl ? `<p><a href="${escapeHtml(continueUrl)}">${escapeHtml(m.continueHere)}</a></p>` : "";
  return layout(m, title, `<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(body)}</p>\n${next}`);
}

export function errorPage(key: ErrorKey, lang?: string | null): string {
  const m = messages(lang);
  const title = m.errors[key];
  return layout(m, title, `<h1>${escapeHtml(title)}</h1>`);
}

/** The payer's likely country from Accept-Language (`lt-LT,lt;q=0.9,en;q=0.8`), if it has test banks. */
export function countryFromAcceptLanguage(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const byLanguage: Readonly<Record<string, string>> = { lt: "LT", lv: "LV", et: "EE" };
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
    const fromLanguage = byLanguage[language.toLowerCase()];
    if (fromLanguage) return fromLanguage;
  }
  return undefined;
}

/**
 * The country of the bank choice: the page's own country select, then the merchant's
 * `countryCode`, then the browser's languages, then LT (the reference: "by IP"; the sandbox has none).
 */
export function pageCountry(
  asked: string | null,
  countryCode: string | undefined,
  acceptLanguage: string | undefined,
): string {
  const fromSelect = asked?.toUpperCase();
  if (fromSelect && isCountryCode(fromSelect)) return fromSelect;
  return countryCode ?? countryFromAcceptLanguage(acceptLanguage) ?? "LT";
}
