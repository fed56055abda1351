import type { ApiCall } from "./call";
import { isCountryCode } from "./banks";
import { apiErrors, header, isHttpUrl } from "./http";

/** Query parameters and headers several endpoints share. */

export function booleanQuery(url: URL, name: string): boolean | undefined {
  const value = url.searchParams.get(name);
  if (value === null || value === "") return undefined;
  if (value === "true" || value === "false") return value === "true";
  throw apiErrors.invalidRequest(`"${name}" must be a boolean`);
}

/** `lang` and `countryCode` of the hosted page (ADR 6), checked and carried into the link. */
export function hostedPageQuery(url: URL): { lang?: string; countryCode?: string } {
  const lang = url.searchParams.get("lang")?.toLowerCase();
  const countryCode = url.searchParams.get("countryCode");
  if (countryCode !== null && !isCountryCode(countryCode)) throw apiErrors.invalidCountryCode();
  return { ...(lang && /^[a-z]{2}$/.test(lang) && { lang }), ...(countryCode && { countryCode }) };
}

export function checkRedirectUrl(call: ApiCall): string {
  const redirectUrl = header(call.req, "redirect-url")?.trim();
  if (!redirectUrl || !isHttpUrl(redirectUrl)) throw apiErrors.invalidRedirect();
  return redirectUrl;
}

/** The Webhook-URL header, kept untrimmed: the webhook signature covers the exact string. */
export function checkWebhookUrl(call: ApiCall): string | undefined {
  const webhookUrl = header(call.req, "webhook-url");
  if (webhookUrl === undefined || webhookUrl === "") return undefined;
  if (!isHttpUrl(webhookUrl)) throw apiErrors.invalidWebhookUrl();
  return webhookUrl;
}
