import type { IncomingMessage, ServerResponse } from "node:http";
import { findBank, isCountryCode, listBanks, type TestBank } from "./banks";
import { checkCardForm, TEST_OTP, type CardFormError } from "./cards";
import type { SandboxContext } from "./context";
import { PageError, escapeHtml, header, readForm, redirect303, sendHtml } from "./http";
import { messages, type Messages, type OutcomeKey } from "./i18n";
import { setPaymentStatus } from "./lifecycle";
import { openLinkingLink } from "./linking";
import { claim, ownsLink } from "./links";
import {
  bankChoice,
  cardForm,
  cardFormError,
  gonePage,
  layout,
  loginForm,
  orderSummary,
  otpForm,
  pageCountry,
  postButton,
  previewBankForm,
  stepLabel,
} from "./pages";
import { returnUrl } from "./payments";
import { ERROR_CODES, isFinal } from "./statuses";
import type { PaymentRecord, PaymentStep } from "./store";
import { accountsOf, findUser, TEST_USERS, userNamed } from "./users";

/**
 * The provider's hosted payment page at the confirmLink `/login/{paymentId}`: method choice
 * (hybrid), bank choice, test-bank login, account choice and decision, or the card form. Each
 * step is a POST answered with a 303 to `/login/{id}/step`, so Back and reload never re-submit.
 */

const linkPath = (p: PaymentRecord) => `/login/${p.id}`;
const stepUrl = (p: PaymentRecord) => `/login/${p.id}/step`;
const bankOf = (p: PaymentRecord) => (p.bankId === undefined ? undefined : findBank(p.bankId));
/** redirectPreferred: the login and confirm steps stand for the bank's own site, outside the frame. */
const brandOf = (p: PaymentRecord) => (p.redirectPreferred ? bankOf(p) : undefined);

/** "Step n of m" within the frame, when the flow has more than one step and this one is counted. */
function stepOf(m: Messages, p: PaymentRecord, step: PaymentStep): string {
  const card = p.step === "card" || p.step === "card-verify";
  const steps: PaymentStep[] = card
    ? [...(p.method === "hybrid" ? ["method" as const] : []), "card"]
    : [
        ...(p.method === "hybrid" ? ["method" as const] : []),
        ...(p.bankPreselected ? [] : ["bank" as const]),
        "login",
        "confirm",
      ];
  const at = steps.indexOf(step);
  if (
    at === -1 ||
    steps.length < 2 ||
    p.linkingId !== undefined ||
    (brandOf(p) && (step === "login" || step === "confirm"))
  )
    return "";
  return stepLabel(m, at + 1, steps.length);
}

function cancelButton(m: Messages, p: PaymentRecord): string {
  return postButton(`${linkPath(p)}/cancel`, m.cancel);
}

function methodPage(m: Messages, p: PaymentRecord): string {
  return layout(
    m,
    m.chooseMethod,
    `<h1>${escapeHtml(m.chooseMethod)}</h1>
${orderSummary(m, p)}
<form method="post" action="${linkPath(p)}/method">
<div class="actions">
<button type="submit" name="method" value="bank" class="primary">${escapeHtml(m.payByBank)}</button>
<button type="submit" name="method" value="card" class="primary">${escapeHtml(m.payByCard)}</button>
</div>
</form>
<div class="actions">${cancelButton(m, p)}</div>`,
  );
}

function bankPage(m: Messages, p: PaymentRecord, country: string, error: boolean): string {
  return layout(
    m,
    m.chooseBank,
    `${stepOf(m, p, "bank")}
<h1>${escapeHtml(m.chooseBank)}</h1>
${orderSummary(m, p)}
${bankChoice(m, { stepUrl: stepUrl(p), action: `${linkPath(p)}/bank`, country, banks: listBanks(country), error })}
<div class="actions">${cancelButton(m, p)}</div>`,
  );
}

function loginPage(m: Messages, p: PaymentRecord, error: boolean): string {
  const bankName = bankOf(p)?.name ?? "";
  const title = m.logInTo(bankName);
  const changeBank =
    p.bankPreselected || brandOf(p) ? "" : postButton(`${linkPath(p)}/change-bank`, m.chooseAnotherBank);
  return layout(
    m,
    title,
    `${stepOf(m, p, "login")}
<h1>${escapeHtml(title)}</h1>
${orderSummary(m, p)}
${loginForm(m, { action: `${linkPath(p)}/login`, error, users: TEST_USERS })}
<div class="actions">
${changeBank}
${cancelButton(m, p)}
</div>`,
    { bank: brandOf(p) },
  );
}

function confirmPage(m: Messages, p: PaymentRecord): string {
  const bank = bankOf(p);
  let from: string;
  if (p.linkingId !== undefined) {
    from = `<p>${escapeHtml(m.linkedAccount(bank?.name ?? "", p.debtorAccount?.iban ?? ""))}</p>`;
  } else {
    const accounts = bank ? accountsOf(bank, p.user ?? "test") : [];
    const items = accounts
      .map(
        (a, i) =>
          `<li><label><input type="radio" name="account" value="${escapeHtml(a.id)}"${i === 0 ? " checked" : ""}>` +
          `<span>${escapeHtml(m.accountKinds[a.kind])}<span class="iban">${escapeHtml(a.iban)}</span></span></label></li>`,
      )
      .join("\n");
    from = `<fieldset><legend>${escapeHtml(m.payFrom)}</legend><ul class="choices">\n${items}\n</ul></fieldset>`;
  }
  const base = linkPath(p);
  return layout(
    m,
    m.confirmPayment,
    `${stepOf(m, p, "confirm")}
<h1>${escapeHtml(m.confirmPayment)}</h1>
${orderSummary(m, p)}
<form method="post" action="${base}/approve">
${from}
<div class="actions">
<button type="submit" class="primary">${escapeHtml(m.approve)}</button>
<button type="submit" formaction="${base}/reject" class="danger">${escapeHtml(m.reject)}</button>
<button type="submit" formaction="${base}/pending">${escapeHtml(m.leavePending)}</button>
<button type="submit" formaction="${base}/cancel">${escapeHtml(m.cancel)}</button>
</div>
</form>`,
    { bank: brandOf(p) },
  );
}

function cardPage(m: Messages, p: PaymentRecord, error: CardFormError | undefined): string {
  return layout(
    m,
    m.cardHeading,
    `${stepOf(m, p, "card")}
<h1>${escapeHtml(m.cardHeading)}</h1>
${orderSummary(m, p)}
${cardForm(m, { action: `${linkPath(p)}/card`, error, submit: m.payAmount(`${p.amount} ${p.currencyCode}`) })}
<div class="actions">${cancelButton(m, p)}</div>`,
  );
}

function verifyPage(m: Messages, p: PaymentRecord, error: boolean): string {
  return layout(
    m,
    m.verifyHeading,
    `<h1>${escapeHtml(m.verifyHeading)}</h1>
${orderSummary(m, p)}
${otpForm(m, { action: `${linkPath(p)}/otp`, error })}
<div class="actions">${cancelButton(m, p)}</div>`,
  );
}

function outcomeOf(p: PaymentRecord): OutcomeKey {
  if (p.statusGroup === "completed") return "approved";
  if (p.statusGroup !== "failed") return "pending";
  if (p.errorCodes.includes(ERROR_CODES.expired)) return "expired";
  if (p.statusCode === "RJCT") return "rejected";
  if (p.statusCode === "payment_failure") return "declined";
  if (p.statusCode === "CANC" || p.statusCode === "cancelled") return "cancelled";
  return "failed";
}

function outcomePage(m: Messages, p: PaymentRecord): string {
  const title = m.outcomes[outcomeOf(p)];
  return layout(
    m,
    title,
    `<h1>${escapeHtml(title)}</h1>
${orderSummary(m, p)}
<p>${escapeHtml(p.statusGroup === "pending" ? m.pendingBody : m.finishedBody)}</p>
<p><a href="${escapeHtml(returnUrl(p))}">${escapeHtml(m.returnTo(p.creditorName))}</a></p>`,
  );
}

/**
 * The confirmLink itself, or an entry to it the mobile SDKs build (`previewBankId`: the bank the
 * payer picked in the app): the first visit claims it, any later one says it was used.
 */
function openLink(
  ctx: SandboxContext,
  req: IncomingMessage,
  res: ServerResponse,
  p: PaymentRecord,
  url: URL,
  previewBankId?: string,
) {
  const lang = url.searchParams.get("lang")?.toLowerCase();
  const m = messages(lang ?? p.lang);
  // A HEAD (link previews, uptime checks) must not use up the payer's link.
  if (req.method === "HEAD") return sendHtml(res, 200, "");
  if (p.link.token) return sendHtml(res, 410, gonePage(m, "used", ownsLink(req, p.link) ? stepUrl(p) : undefined));
  if (p.step === "done" || isFinal(p.statusGroup)) {
    return sendHtml(res, 410, gonePage(m, p.errorCodes.includes(ERROR_CODES.expired) ? "expired" : "finished"));
  }
  // The PHP client appends its own lang (and a merchant may add countryCode): the link's query wins.
  if (lang && /^[a-z]{2}$/.test(lang)) p.lang = lang;
  const country = url.searchParams.get("countryCode");
  if (country && isCountryCode(country)) p.countryCode = country;
  let next = stepUrl(p);
  if (previewBankId !== undefined) {
    // As if chosen on the bank page (a hybrid payment: after Pay by bank); a bankId given at
    // initiation stays.
    if (p.step === "method") act(ctx, p, "method", new URLSearchParams({ method: "bank" }));
    next = act(ctx, p, "bank", previewBankForm(previewBankId, p.countryCode));
    p.updatedAt = ctx.now();
  }
  const setCookie = claim(p.link, linkPath(p), ctx.now());
  ctx.changed();
  return redirect303(res, next, { "Set-Cookie": setCookie });
}

function show(req: IncomingMessage, res: ServerResponse, p: PaymentRecord, url: URL) {
  const m = messages(p.lang);
  const error = url.searchParams.get("error");
  switch (p.step) {
    case "method":
      return sendHtml(res, 200, methodPage(m, p));
    case "bank":
      return sendHtml(
        res,
        200,
        bankPage(
          m,
          p,
          pageCountry(url.searchParams.get("country"), p.countryCode, header(req, "accept-language")),
          error === "bank",
        ),
      );
    case "login":
      return sendHtml(res, 200, loginPage(m, p, error === "credentials"));
    case "confirm":
      return sendHtml(res, 200, confirmPage(m, p));
    case "card":
      return sendHtml(res, 200, cardPage(m, p, cardFormError(error)));
    case "card-verify":
      return sendHtml(res, 200, verifyPage(m, p, error === "otp"));
    case "done":
      return sendHtml(res, 200, outcomePage(m, p));
  }
}

/** Records the debtor account the payer picked (or the linked one). */
function chooseAccount(p: PaymentRecord, bank: TestBank, form: URLSearchParams) {
  if (p.linkingId !== undefined) return;
  const accounts = accountsOf(bank, p.user ?? "test");
  const chosen = accounts.find((a) => a.id === form.get("account")) ?? accounts[0];
  if (chosen) p.debtorAccount = { iban: chosen.iban, currencyCode: p.currencyCode };
}

function cancel(ctx: SandboxContext, p: PaymentRecord) {
  const late = p.step === "confirm" || p.step === "card-verify";
  const errorCodes = [late ? ERROR_CODES.cancelledBeforeConfirmation : ERROR_CODES.cancelledBeforeLogin];
  if (p.statusKind === "bank") setPaymentStatus(ctx, p, { kind: "bank", code: "CANC", errorCodes, source: "payer" });
  else if (p.step === "card-verify")
    setPaymentStatus(ctx, p, { kind: "card", code: "cancelled", errorCodes, source: "payer" });
  else setPaymentStatus(ctx, p, { kind: "hybrid", code: "cancelled", errorCodes, source: "payer" });
}

/** Applies one form post; returns where to send the browser. */
function act(ctx: SandboxContext, p: PaymentRecord, action: string, form: URLSearchParams): string {
  const here = stepUrl(p);
  // A finished payment answers every action with the way back to the merchant, so a double click or
  // a re-submit after Back lands where the first click did, and never changes the outcome.
  if (p.step === "done") return returnUrl(p);
  const bank = bankOf(p);
  switch (action) {
    case "method": {
      if (p.step !== "method") return here;
      const choice = form.get("method");
      if (choice === "bank") {
        setPaymentStatus(ctx, p, { kind: "bank", code: "STRD", source: "payer" });
        p.step = p.bankPreselected ? "login" : "bank";
      } else if (choice === "card") p.step = "card";
      return here;
    }
    case "bank": {
      if (p.step !== "bank") return here;
      const chosen = findBank(form.get("bankId") ?? "");
      if (!chosen) return `${here}?error=bank`;
      p.bankId = chosen.id;
      p.step = "login";
      return here;
    }
    case "change-bank":
      if (p.step === "login" && !p.bankPreselected) {
        delete p.bankId;
        p.step = "bank";
      }
      return here;
    case "login": {
      if (p.step !== "login") return here;
      const user = findUser(form.get("username"), form.get("password"));
      if (!user) return `${here}?error=credentials`;
      p.user = user.username;
      p.step = "confirm";
      return here;
    }
    case "approve": {
      if (p.step !== "confirm" || !bank) return here;
      chooseAccount(p, bank, form);
      const pendingMs =
        ctx.settings.pendingMs || (userNamed(p.user)?.approvals === "pending" ? ctx.settings.pendingUserMs : 0);
      if (pendingMs > 0) {
        setPaymentStatus(ctx, p, { kind: "bank", code: "ACSP", source: "payer" });
        if (p.statusGroup === "pending") p.pendingUntil = ctx.now() + pendingMs;
      } else setPaymentStatus(ctx, p, { kind: "bank", code: "ACSC", source: "payer" });
      p.step = "done";
      return returnUrl(p);
    }
    case "reject":
      if (p.step !== "confirm" || !bank) return here;
      chooseAccount(p, bank, form);
      setPaymentStatus(ctx, p, {
        kind: "bank",
        code: "RJCT",
        errorCodes: [ERROR_CODES.insufficientFunds],
        source: "payer",
      });
      return returnUrl(p);
    case "pending":
      if (p.step !== "confirm" || !bank) return here;
      chooseAccount(p, bank, form);
      // Waiting for something at the bank (a second signature, say): stays until the console moves it.
      setPaymentStatus(ctx, p, { kind: "bank", code: "ACTC", source: "payer" });
      p.step = "done";
      return returnUrl(p);
    case "card": {
      if (p.step !== "card") return here;
      const checked = checkCardForm(form, ctx.now());
      if ("error" in checked) return `${here}?error=${checked.error}`;
      if (checked.card.behaviour === "verify") {
        p.step = "card-verify";
        return here;
      }
      if (checked.card.behaviour === "success")
        setPaymentStatus(ctx, p, { kind: "card", code: "payment_success", source: "payer" });
      else
        setPaymentStatus(ctx, p, {
          kind: "card",
          code: "payment_failure",
          errorCodes: [ERROR_CODES.rejectedByBank],
          source: "payer",
        });
      return returnUrl(p);
    }
    case "otp":
      if (p.step !== "card-verify") return here;
      if ((form.get("otp") ?? "").trim() !== TEST_OTP) return `${here}?error=otp`;
      setPaymentStatus(ctx, p, { kind: "card", code: "payment_success", source: "payer" });
      return returnUrl(p);
    case "cancel":
      cancel(ctx, p);
      return returnUrl(p);
    default:
      throw new PageError(404, "notFound");
  }
}

/**
 * Routes `/login/{paymentId}` (the confirmLink), `/login/{id}/step` (GET), `/login/{id}/{action}`
 * (POST) and the mobile SDKs' `/login/{paymentId|state}/{bankId}/preview` (GET).
 */
export async function handlePaymentPages(
  ctx: SandboxContext,
  req: IncomingMessage,
  res: ServerResponse,
  method: string,
  segments: string[],
  url: URL,
) {
  const [id, action, ...extra] = segments;
  const preview = method === "GET" && action !== undefined && extra.length === 1 && extra[0] === "preview";
  if (id === undefined || (extra.length > 0 && !preview)) throw new PageError(404, "notFound");
  const request = preview ? ctx.store.authRequests.get(id) : undefined;
  if (request) return openLinkingLink(ctx, req, res, request, url, action);
  const payment = ctx.store.payments.get(id);
  if (!payment) throw new PageError(404, "paymentNotFound");
  if (preview) return openLink(ctx, req, res, payment, url, action);
  if (method === "GET" && action === undefined) return openLink(ctx, req, res, payment, url);
  if (!ownsLink(req, payment.link)) return sendHtml(res, 410, gonePage(messages(payment.lang), "used"));
  if (method === "GET" && action === "step") return show(req, res, payment, url);
  if (method === "POST" && action !== undefined && action !== "step") {
    const form = await readForm(req);
    const next = act(ctx, payment, action, form);
    payment.updatedAt = ctx.now();
    ctx.changed();
    return redirect303(res, next);
  }
  throw new PageError(404, "notFound");
}

/**
 * `/payments/{paymentId}/processing`, where the mobile SDKs send the payer of a linked-account
 * payment (provider-api.md 4.7). It opens the payment as its confirmLink does: for a linked
 * account, at the confirm step with the linked account.
 */
export function handleProcessingPage(
  ctx: SandboxContext,
  req: IncomingMessage,
  res: ServerResponse,
  method: string,
  segments: string[],
  url: URL,
) {
  const [id, page, ...extra] = segments;
  if (method !== "GET" || id === undefined || page !== "processing" || extra.length > 0)
    throw new PageError(404, "notFound");
  const payment = ctx.store.payments.get(id);
  if (!payment) throw new PageError(404, "paymentNotFound");
  return openLink(ctx, req, res, payment, url);
}
