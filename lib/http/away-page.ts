/**
 * The page a payer gets while this instance's database is away (lib/db/away.ts): the proxy
 * rewrites a page's request to it with a 503, and tells it the address asked for in AWAY_HEADER;
 * without that header, the page asked for directly, it is an ordinary 404.
 */
export const AWAY_PAGE = "/unavailable";
export const AWAY_HEADER = "x-checkout-database-away";
/** The page says it tries again in 5 seconds (components/errors/ErrorView.tsx). */
export const AWAY_RETRY_AFTER_S = 5;
