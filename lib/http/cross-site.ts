/**
 * A request a page on another site made the payer's browser send (CSRF): a form, or a script's
 * fetch. Every browser sends Origin with a POST or DELETE, and Sec-Fetch-Site with any request:
 * either one naming another site (or a sibling host: "same-site" is still not us) refuses it. The
 * Origin is compared with the host the request was sent to (X-Forwarded-Host behind a proxy, else
 * Host). A request with neither header is no browser's (a merchant's server, curl): left to the
 * route's own credential.
 */
export function crossSiteRequest(headers: Headers): boolean {
  const site = headers.get("sec-fetch-site");
  if (site === "cross-site" || site === "same-site") return true;
  const origin = headers.get("origin");
  if (origin === null) return false;
  const originHost = URL.canParse(origin) ? new URL(origin).host : origin;
  const host = headers.get("x-forwarded-host")?.split(",")[0]?.trim() || headers.get("host");
  return originHost !== host;
}

/**
 * Whether a body is declared as JSON (`application/json`, or a `+json` type such as
 * `application/problem+json`, any parameters). A form can send JSON-shaped text only as
 * text/plain, urlencoded or multipart, so a JSON route that takes nothing else cannot be posted
 * to by another site's form.
 */
export function declaredJson(headers: Headers): boolean {
  const type = (headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  return type === "application/json" || /^application\/[a-z0-9.!#$&^_-]+\+json$/.test(type);
}
