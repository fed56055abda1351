import type { IncomingMessage, ServerResponse } from "node:http";
import { authReturnUrl, grantLinking } from "./auth";
import { findBank, listBanks, supportsLinking } from "./banks";
import { checkCardForm, TEST_OTP } from "./cards";
import type { SandboxContext } from "./context";
import { PageError, escapeHtml, header, readForm, redirect303, sendHtml } from "./http";
import { messages, type Messages } from "./i18n";
import { claim, ownsLink } from "./links";
import {
  bankChoice,
  cardForm,
  cardFormError,
  gonePage,
  layout,
  loginForm,
  otpForm,
  pageCountry,
  postButton,
  previewBankForm,
} from "./pages";
import { projectById } from "./projects";
import type { AuthRequest } from "./store";
import { accountsOf, findUser, TEST_USERS } from "./users";

/**
 * The hosted account-linking page at the authorizationLink `/auth/{state}`: bank choice (banks
 * that support linking), test-bank login, consent; for card linking the test card form (and its
 * one-time code) instead of bank and login. Then back to the Redirect-URL with requestId, code and
 * status=success, or status=failure. Single use and 48 hours, like the payment link.
 */

const linkPath = (r: AuthRequest) => `/auth/${r.state}`;
const stepUrl = (r: AuthRequest) => `/auth/${r.state}/step`;
const bankOf = (r: AuthRequest) => (r.bankId === undefined ? undefined : findBank(r.bankId));

function page(m: Messages, r: AuthRequest, title: string, body: string): string {
  const brand = r.redirectPreferred && r.step !== "bank" ? bankOf(r) : undefined;
  return layout(
    m,
    title,
    `<h1>${escapeHtml(title)}</h1>\n${body}\n<div class="actions">${postButton(`${linkPath(r)}/cancel`, m.cancel)}</div>`,
    {
      siteName: m.linkingSiteName,
      bank: brand,
    },
  );
}

function consentPage(ctx: SandboxContext, m: Messages, r: AuthRequest): string {
  const bank = bankOf(r);
  const project = projectById(ctx.store.projects, r.projectId);
  const scopes = r.scopes.map((s) => `<li>${escapeHtml(m.scopeNames[s])}</li>`).join("");
  const accounts = bank
    ? accountsOf(bank, r.user ?? "test")
        .map((a) => `<li>${escapeHtml(m.accountKinds[a.kind])}: ${escapeHtml(a.iban)}</li>`)
        .join("")
    : "";
  return `<p>${escapeHtml(m.consentIntro(project?.name ?? "", bank?.name ?? ""))}</p>
<ul>${scopes}</ul>
<h2>${escapeHtml(m.accounts)}</h2>
<ul>${accounts}</ul>
<p>${escapeHtml(m.consentValidity)}</p>
<form method="post" action="${linkPath(r)}/allow">
<div class="actions">
<button type="submit" class="primary">${escapeHtml(m.allow)}</button>
<button type="submit" formaction="${linkPath(r)}/deny">${escapeHtml(m.deny)}</button>
</div>
</form>`;
}

function outcomePage(m: Messages, r: AuthRequest): string {
  const title = r.outcome === "success" ? m.outcomes.linked : m.outcomes.linkCancelled;
  const merchant = new URL(r.redirectUrl).host;
  return layout(
    m,
    title,
    `<h1>${escapeHtml(title)}</h1>\n<p><a href="${escapeHtml(authReturnUrl(r))}">${escapeHtml(m.returnTo(merchant))}</a></p>`,
    {
      siteName: m.linkingSiteName,
    },
  );
}

function show(ctx: SandboxContext, req: IncomingMessage, res: ServerResponse, r: AuthRequest, url: URL) {
  const m = messages(r.lang);
  const error = url.searchParams.get("error");
  switch (r.step) {
    case "bank": {
      const country = pageCountry(url.searchParams.get("country"), r.countryCode, header(req, "accept-language"));
      const banks = listBanks(country).filter(supportsLinking);
      return sendHtml(
        res,
        200,
        page(
          m,
          r,
          m.chooseBank,
          bankChoice(m, {
            stepUrl: stepUrl(r),
            action: `${linkPath(r)}/bank`,
            country,
            banks,
            error: error === "bank",
          }),
        ),
      );
    }
    case "login":
      return sendHtml(
        res,
        200,
        page(
          m,
          r,
          m.logInTo(bankOf(r)?.name ?? ""),
          loginForm(m, { action: `${linkPath(r)}/login`, error: error === "credentials", users: TEST_USERS }),
        ),
      );
    case "card":
      return sendHtml(
        res,
        200,
        page(
          m,
          r,
          m.linkCardHeading,
          cardForm(m, { action: `${linkPath(r)}/card`, error: cardFormError(error), submit: m.continue }),
        ),
      );
    case "card-verify":
      return sendHtml(
        res,
        200,
        page(m, r, m.verifyHeading, otpForm(m, { action: `${linkPath(r)}/otp`, error: error === "otp" })),
      );
    case "consent":
      return sendHtml(res, 200, page(m, r, m.consentHeading, consentPage(ctx, m, r)));
    case "done":
      return sendHtml(res, 200, outcomePage(m, r));
  }
}

function act(ctx: SandboxContext, r: AuthRequest, action: string, form: URLSearchParams): string {
  const here = stepUrl(r);
  if (r.step === "done") return authReturnUrl(r);
  switch (action) {
    case "bank": {
      const bank = findBank(form.get("bankId") ?? "");
      if (r.step !== "bank") return here;
      if (!bank || !supportsLinking(bank)) return `${here}?error=bank`;
      r.bankId = bank.id;
      r.step = "login";
      return here;
    }
    case "login": {
      if (r.step !== "login") return here;
      const user = findUser(form.get("username"), form.get("password"));
      if (!user) return `${here}?error=credentials`;
      r.user = user.username;
      r.step = "consent";
      return here;
    }
    case "card": {
      if (r.step !== "card") return here;
      const checked = checkCardForm(form, ctx.now());
      if ("error" in checked) return `${here}?error=${checked.error}`;
      if (checked.card.behaviour === "decline") {
        r.outcome = "failure";
        r.step = "done";
        return authReturnUrl(r);
      }
      // The card's issuing test bank becomes the linked bank, as the provider recognises banks by card.
      r.bankId = checked.card.bankId;
      r.user = "test";
      r.step = checked.card.behaviour === "verify" ? "card-verify" : "consent";
      return here;
    }
    case "otp":
      if (r.step !== "card-verify") return here;
      if ((form.get("otp") ?? "").trim() !== TEST_OTP) return `${here}?error=otp`;
      r.step = "consent";
      return here;
    case "allow":
      if (r.step !== "consent") return here;
      grantLinking(ctx, r);
      return authReturnUrl(r);
    case "deny":
    case "cancel":
      r.outcome = "failure";
      r.step = "done";
      return authReturnUrl(r);
    default:
      throw new PageError(404, "notFound");
  }
}

const isExpired = (ctx: SandboxContext, r: AuthRequest) => r.step !== "done" && ctx.now() >= r.expiresAt;

/**
 * The authorizationLink, or the mobile SDKs' `/login/{state}/{bankId}/preview` to it (the bank the
 * payer picked in the app, chosen as on the bank page): the first visit claims it.
 */
export function openLinkingLink(
  ctx: SandboxContext,
  req: IncomingMessage,
  res: ServerResponse,
  r: AuthRequest,
  url: URL,
  previewBankId?: string,
) {
  const m = messages(url.searchParams.get("lang") ?? r.lang);
  if (req.method === "HEAD") return sendHtml(res, 200, "");
  if (isExpired(ctx, r)) return sendHtml(res, 410, gonePage(m, "expired"));
  if (r.link.token || r.step === "done")
    return sendHtml(res, 410, gonePage(m, "used", ownsLink(req, r.link) ? stepUrl(r) : undefined));
  const lang = url.searchParams.get("lang")?.toLowerCase();
  if (lang && /^[a-z]{2}$/.test(lang)) r.lang = lang;
  const next =
    previewBankId === undefined ? stepUrl(r) : act(ctx, r, "bank", previewBankForm(previewBankId, r.countryCode));
  const setCookie = claim(r.link, linkPath(r), ctx.now());
  ctx.changed();
  return redirect303(res, next, { "Set-Cookie": setCookie });
}

/** Routes `/auth/{state}` (the authorizationLink), `/auth/{state}/step` and `/auth/{state}/{action}`. */
export async function handleLinkingPages(
  ctx: SandboxContext,
  req: IncomingMessage,
  res: ServerResponse,
  method: string,
  segments: string[],
  url: URL,
) {
  const [state, action, ...extra] = segments;
  if (state === undefined || extra.length > 0) throw new PageError(404, "notFound");
  const r = ctx.store.authRequests.get(state);
  if (!r) throw new PageError(404, "linkNotFound");
  if (method === "GET" && action === undefined) return openLinkingLink(ctx, req, res, r, url);
  const m = messages(url.searchParams.get("lang") ?? r.lang);
  if (!ownsLink(req, r.link)) return sendHtml(res, 410, gonePage(m, "used"));
  if (isExpired(ctx, r)) return sendHtml(res, 410, gonePage(m, "expired"));
  if (method === "GET" && action === "step") return show(ctx, req, res, r, url);
  if (method === "POST" && action !== undefined && action !== "step") {
    const next = act(ctx, r, action, await readForm(req));
    ctx.changed();
    return redirect303(res, next);
  }
  throw new PageError(404, "notFound");
}
