import { and, eq, inArray, lte } from "drizzle-orm";
import { accountLinks } from "../../db/schema";
import { nowOf, type CheckoutContext } from "../context";
import { ending } from "./links";

/** The provider's authorizationLink lives 48 hours; a linking not back by then never will be. */
const PENDING_LINK_TTL_MS = 48 * 3600 * 1000;

/**
 * Housekeeping for the worker: links past their 90 days lose their tokens now rather than at
 * their next use, and linkings the payer never finished are closed.
 */
export async function endLapsedLinks(ctx: CheckoutContext): Promise<number> {
  const now = nowOf(ctx);
  const expired = await ctx.db
    .update(accountLinks)
    .set(ending("expired", now))
    .where(and(eq(accountLinks.status, "active"), lte(accountLinks.expiresAt, now)))
    .returning({ id: accountLinks.id });
  const abandoned = await ctx.db
    .update(accountLinks)
    .set(ending("failed", now, "not_finished"))
    .where(
      and(
        inArray(accountLinks.status, ["pending", "exchanging"]),
        lte(accountLinks.createdAt, new Date(now.getTime() - PENDING_LINK_TTL_MS)),
      ),
    )
    .returning({ id: accountLinks.id });
  return expired.length + abandoned.length;
}
