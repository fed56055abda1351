import { isIP } from "node:net";
import { desc, eq } from "drizzle-orm";
import { accountLinks } from "../db/schema";
import { clientIp } from "../http/client-address";
import { checkoutWithLatestAttempt, toAttemptView, toCheckoutView } from "./checkouts";
import type { CheckoutContext } from "./context";
import { findBank, projectInfoOrBankOnly, providerCountries } from "./project";
import { onlyTestBanks } from "./banks";
import type { AttemptView, CheckoutView, SavedAccountView } from "./contract";
import { savedAccountView } from "./saved-accounts/paying";
import { LOCALES, type Locale } from "./types";
import { hashHandle, validHandle } from "./saved-accounts/payer-handle";
import { outcomeOf, type LinkOutcome } from "./saved-accounts/link-return";
import { expireIfDue } from "./apply-status";

/** Everything the checkout page needs, computed on the server for one request. */
export interface CheckoutPageData {
  checkout: CheckoutView;
  /** From ?lang=, else the checkout's locale, else Accept-Language, else en. */
  locale: Locale;
  /** From the checkout's country hint, else an IP-country header, else Accept-Language, else LT. */
  defaultCountry: string;
  /** Countries the payer can switch to (ISO codes), in the provider's order. */
  countries: string[];
  /** Methods the project allows; card and hybrid need `card` in the project's payment methods. */
  methods: { bank: boolean; card: boolean; hybrid: boolean };
  /** The provider project is a test project: show the test banner. */
  sandboxProject: boolean;
  /** The latest attempt, to show an attempt in flight after Back from the bank. */
  attempt: (AttemptView & { bankName: string | null }) | null;
  /** The payer may save the account while paying: the shop named its customer, the project allows linking. */
  canSaveAccount: boolean;
  savedAccount: SavedAccountView | null;
}

// Request headers some hosts and CDNs add with the visitor's country (Cloudflare, Vercel, others).
const IP_COUNTRY_HEADERS = ["cf-ipcountry", "x-vercel-ip-country", "x-country-code", "x-geo-country"];

// A language alone still says something about where the payer banks.
const COUNTRY_OF_LANGUAGE: Record<string, string> = { lt: "LT", lv: "LV", et: "EE" };

/** Accept-Language entries, best first: [{lang:"lt", region:"LT"}, ...]. */
export function acceptedLanguages(header: string | null): { lang: string; region: string | null }[] {
  if (!header) return [];
  return header
    .split(",")
    .map((part, i) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = Number(
        params
          .find((p) => p.trim().startsWith("q="))
          ?.trim()
          .slice(2) ?? "1",
      );
      const [lang = "", region] = tag.split("-");
      return {
        lang: lang.toLowerCase(),
        region: region ? region.toUpperCase() : null,
        q: Number.isFinite(q) ? q : 0,
        i,
      };
    })
    .filter((e) => e.lang && e.lang !== "*" && e.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i)
    .map(({ lang, region }) => ({ lang, region }));
}

const isLocale = (v: string | null | undefined): v is Locale => !!v && (LOCALES as readonly string[]).includes(v);

export function chooseLocale(opts: {
  requested?: string | null;
  checkoutLocale?: string | null;
  acceptLanguage: string | null;
}): Locale {
  if (isLocale(opts.requested)) return opts.requested;
  if (isLocale(opts.checkoutLocale)) return opts.checkoutLocale;
  return (
    acceptedLanguages(opts.acceptLanguage)
      .map((l) => l.lang)
      .find(isLocale) ?? "en"
  );
}

export function chooseCountry(opts: { hint?: string | null; headers: Headers; countries: string[] }): string {
  const ok = (c: string | null | undefined): c is string => !!c && opts.countries.includes(c.toUpperCase());
  if (ok(opts.hint)) return opts.hint.toUpperCase();
  for (const h of IP_COUNTRY_HEADERS) {
    const v = opts.headers.get(h);
    if (ok(v)) return v.toUpperCase();
  }
  for (const { lang, region } of acceptedLanguages(opts.headers.get("accept-language"))) {
    if (ok(region)) return region;
    if (ok(COUNTRY_OF_LANGUAGE[lang])) return COUNTRY_OF_LANGUAGE[lang]!;
  }
  return opts.countries.includes("LT") ? "LT" : (opts.countries[0] ?? "LT");
}

/**
 * The payer's side of an account-information request (provider-api.md 2). The device id is derived
 * from the browser handle's hash: stable per browser, and not the handle itself.
 */
export function payerPsu(headers: Headers, payerHandle: string) {
  const address = clientIp(headers);
  const ip = isIP(address) ? address : "127.0.0.1";
  return {
    ipAddress: ip,
    ipPort: /^\d{1,5}$/.test(headers.get("x-forwarded-port") ?? "")
      ? (headers.get("x-forwarded-port") as string)
      : "443",
    userAgent: headers.get("user-agent") ?? "unknown",
    httpMethod: "GET" as const,
    deviceId: hashHandle(payerHandle).slice(0, 32),
  };
}

/** Everything the checkout page shows, for one request. Provider trouble degrades, never fails the page. */
export async function getCheckoutPageData(
  checkoutId: string,
  request: { headers: Headers; lang?: string | null; payerHandle?: string },
  c: CheckoutContext,
): Promise<CheckoutPageData | null> {
  const { checkout: found, attempt } = await checkoutWithLatestAttempt(c, checkoutId);
  if (!found) return null;
  const checkout = await expireIfDue(c, found);
  const [project, countries] = await Promise.all([projectInfoOrBankOnly(c), providerCountries(c)]);
  const bank = attempt?.bankId ? await findBank(c, attempt.bankId).catch(() => null) : null;
  const defaultCountry = chooseCountry({ hint: checkout.country, headers: request.headers, countries });
  const sandboxProject =
    project.isSandbox || (!c.pis.profile.projectSettings && (await onlyTestBanks(defaultCountry, c)));
  const payable = checkout.status === "open" || checkout.status === "failed";
  const savedAccount =
    payable && request.payerHandle
      ? await savedAccountView(c, checkout, request.payerHandle, payerPsu(request.headers, request.payerHandle))
      : null;
  return {
    checkout: toCheckoutView(checkout),
    locale: chooseLocale({
      requested: request.lang,
      checkoutLocale: checkout.locale,
      acceptLanguage: request.headers.get("accept-language"),
    }),
    defaultCountry,
    countries,
    methods: project.methods,
    sandboxProject,
    attempt: attempt ? { ...toAttemptView(attempt), bankName: bank?.name ?? null } : null,
    canSaveAccount: checkout.customerId !== null && project.methods.bank && project.scopes.includes("payments"),
    savedAccount,
  };
}

/**
 * How the latest try to save a bank account while paying this checkout ended, for this browser;
 * null when there was none, it has not ended, or it saved an account for another browser (which
 * this one has no business knowing). What the page's `?saved=` may say (the provider's redirect
 * brings it from another site, so the query alone proves nothing).
 */
export async function savingOutcome(
  c: CheckoutContext,
  checkoutId: string,
  payerHandle: string | undefined,
): Promise<LinkOutcome | null> {
  const [link] = await c.db
    .select()
    .from(accountLinks)
    .where(eq(accountLinks.checkoutId, checkoutId))
    .orderBy(desc(accountLinks.createdAt))
    .limit(1);
  if (link?.status === "failed") return outcomeOf(link);
  if (link?.status !== "active") return null;
  return validHandle(payerHandle) && hashHandle(payerHandle) === link.handleHash ? "linked" : null;
}
