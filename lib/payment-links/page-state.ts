/**
 * How the payment link's page and its form talk over the address: the form's answer (a 303) puts
 * the problem there, the page shows it, and proxy.ts answers it with the problem's status (a page
 * cannot set its own), so a link that ended is a 410 and one being paid now a 409.
 */
export const PAY_PROBLEM_PARAM = "problem";

/** The problems the page shows, with the status proxy.ts gives it. */
export const PAY_PAGE_STATUS: Record<string, number> = {
  payment_link_ended: 410,
  payment_link_busy: 409,
  rate_limited: 429,
};

const LINK_PAGE = /^\/pay\/[A-Za-z0-9]{6,20}$/;

/** The status of a link's page request, by its path and query; undefined for anything else. */
export function payPageStatus(pathname: string, search: URLSearchParams): number | undefined {
  if (!LINK_PAGE.test(pathname)) return undefined;
  return PAY_PAGE_STATUS[search.get(PAY_PROBLEM_PARAM) ?? ""];
}

export function payLinkPath(slug: string, query: Record<string, string | undefined>): string {
  const search = new URLSearchParams(Object.entries(query).filter((e): e is [string, string] => !!e[1])).toString();
  return `/pay/${slug}${search ? `?${search}` : ""}`;
}
