import { checkoutFilter, type CheckoutFilter } from "@/lib/checkout/backoffice-filter";

export type SearchParams = Record<string, string | string[] | undefined>;

const KEYS = ["status", "from", "to", "bank", "q", "page"] as const;
const FIELD_NAMES: Record<string, string> = {
  status: "Status",
  from: "From",
  to: "To",
  bank: "Bank",
  q: "Search",
  page: "Page",
};

/**
 * The list's filters from its query string. A value that does not parse is dropped (and named in
 * `problems`) rather than failing the page: a hand-edited address still shows a list.
 */
export function parseFilter(params: SearchParams): { filter: CheckoutFilter; problems: string[] } {
  const raw: Record<string, string> = {};
  for (const key of KEYS) {
    const value = params[key];
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined && first.trim() !== "") raw[key] = first.trim();
  }
  const problems: string[] = [];
  for (let tries = 0; tries <= KEYS.length; tries++) {
    const parsed = checkoutFilter.safeParse(raw);
    if (parsed.success) {
      if (parsed.data.from && parsed.data.to && parsed.data.from > parsed.data.to) {
        problems.push("From is after To, so nothing can match: the dates were swapped.");
        return { filter: { ...parsed.data, from: parsed.data.to, to: parsed.data.from }, problems };
      }
      return { filter: parsed.data, problems };
    }
    const bad = new Set(parsed.error.issues.map((i) => String(i.path[0])));
    for (const key of bad) {
      // Control characters are shown as U+FFFD: a NUL would vanish from the page's HTML.
      const shown = (raw[key] ?? "").slice(0, 40).replace(/[\u0000-\u001f\u007f]/g, "\uFFFD");
      problems.push(`${FIELD_NAMES[key] ?? key} "${shown}" is not valid and was ignored.`);
      delete raw[key];
    }
  }
  return { filter: checkoutFilter.parse({}), problems };
}

/** The query string of these filters ("status=paid&page=2"; empty ones and page 1 are left out). */
export function filterQuery(filter: CheckoutFilter, page = filter.page): string {
  const query = new URLSearchParams();
  if (filter.status) query.set("status", filter.status);
  if (filter.from) query.set("from", filter.from);
  if (filter.to) query.set("to", filter.to);
  if (filter.bank) query.set("bank", filter.bank);
  if (filter.q) query.set("q", filter.q);
  if (page > 1) query.set("page", String(page));
  return query.toString();
}

/** The list's address for these filters, on `page` (the first by default). */
export function listHref(filter: CheckoutFilter, page = 1): string {
  const search = filterQuery(filter, page);
  return search ? `/backoffice?${search}` : "/backoffice";
}

export const hasFilters = (f: CheckoutFilter) => !!(f.status || f.from || f.to || f.bank || f.q);
