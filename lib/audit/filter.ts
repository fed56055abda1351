import { z } from "zod";
import { filterDay } from "../checkout/backoffice-filter";
import { AUDIT_ACTIONS, type AuditAction } from "./actions";
import type { AuditFilter } from "./audit";

/**
 * The Activity page's filters, as they come from its query string (and the CSV export's). Strict, as
 * every query of the API is: a filter misspelt in a hand-made address is refused, not an unfiltered
 * export.
 */
export const activityQuery = z.strictObject({
  person: z
    .string()
    .regex(/^st_[0-9a-f-]{36}$/)
    .optional(),
  action: z.enum(Object.keys(AUDIT_ACTIONS) as [AuditAction, ...AuditAction[]]).optional(),
  from: filterDay.optional(),
  to: filterDay.optional(),
});
export type ActivityQuery = z.infer<typeof activityQuery>;

/** A page's query string: what parses is kept, a field that does not is dropped (and said). */
export function parseActivityQuery(params: Record<string, string | string[] | undefined>): {
  query: ActivityQuery;
  dropped: string[];
} {
  const query: Record<string, unknown> = {};
  const dropped: string[] = [];
  for (const key of Object.keys(activityQuery.shape) as (keyof ActivityQuery)[]) {
    const value = params[key];
    if (value === undefined || value === "") continue;
    const parsed = activityQuery.shape[key].safeParse(value);
    if (parsed.success) query[key] = parsed.data;
    else dropped.push(key);
  }
  return { query: query as ActivityQuery, dropped };
}

const DAY_MS = 24 * 3600_000;

export function toAuditFilter(q: ActivityQuery): AuditFilter {
  return {
    actorId: q.person,
    action: q.action,
    since: q.from ? new Date(`${q.from}T00:00:00Z`) : undefined,
    before: q.to ? new Date(new Date(`${q.to}T00:00:00Z`).getTime() + DAY_MS) : undefined,
  };
}
