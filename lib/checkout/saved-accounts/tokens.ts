import { and, eq, inArray, or, sql, type AnyColumn } from "drizzle-orm";
import { accountLinks, type LinkRow } from "../../db/schema";
import { PisError } from "../../pis";
import { nowOf, type CheckoutContext } from "../context";
import { pollUntil } from "../poll";
import { needsReseal, openToken, sealToken, TokenVaultError, type TokenKey } from "../token-vault";
import { readLink, endLink, SavedAccountEndedError } from "./links";

/** Access tokens are refreshed when they have less than this left. */
const REFRESH_AHEAD_MS = 5 * 60 * 1000;

/** How long a refused refresh waits for a concurrent one's new tokens before calling the link revoked. */
const RACE_GRACE_MS = 2000;

/** Opens a link's sealed token; a key no longer configured is a handled state, said once in the log. */
function openLinkToken(link: LinkRow, sealed: string, keys: readonly TokenKey[]): string {
  try {
    return openToken(sealed, keys);
  } catch (err) {
    if (!(err instanceof TokenVaultError)) throw err;
    console.warn(
      `saved account ${link.id}: ${err.message}; put its key back in TOKEN_ENCRYPTION_KEYS, or the payer links again`,
    );
    throw new SavedAccountEndedError("unreadable");
  }
}

/**
 * Seals the link's tokens again with the newest key, if an older one sealed them, so that the old
 * key can be removed after a rotation. Written only if the tokens are still the ones read (a
 * refresh meanwhile sealed new ones with the newest key anyway).
 */
async function resealIfOld(ctx: CheckoutContext, link: LinkRow): Promise<boolean> {
  const keys = ctx.config.tokenKeys;
  if (!link.accessToken || !link.refreshToken) return false;
  if (!needsReseal(link.accessToken, keys) && !needsReseal(link.refreshToken, keys)) return false;
  const updated = await ctx.db
    .update(accountLinks)
    .set({
      accessToken: sealToken(openLinkToken(link, link.accessToken, keys), keys),
      refreshToken: sealToken(openLinkToken(link, link.refreshToken, keys), keys),
    })
    .where(
      and(
        eq(accountLinks.id, link.id),
        eq(accountLinks.accessToken, link.accessToken),
        eq(accountLinks.refreshToken, link.refreshToken),
      ),
    )
    .returning({ id: accountLinks.id });
  return updated.length > 0;
}

/**
 * The worker's share of a key rotation: re-seals, a batch per round, the active links still sealed
 * with an older key, so that accounts nobody uses for a while do not hold the old key in place.
 * Only links sealed with a key still configured: one whose key is gone cannot be opened, and
 * picking it again every round would hold up the others and warn of it each time (a payer using
 * it is told to link again, and the log says so then).
 */
export async function resealOldTokens(ctx: CheckoutContext, batch = 100): Promise<number> {
  const older = ctx.config.tokenKeys.slice(1).map((k) => k.id);
  if (older.length === 0) return 0;
  const keyOf = (column: AnyColumn) => sql<string>`split_part(${column}, '.', 2)`;
  const stale = await ctx.db
    .select()
    .from(accountLinks)
    .where(
      and(
        eq(accountLinks.status, "active"),
        or(inArray(keyOf(accountLinks.accessToken), older), inArray(keyOf(accountLinks.refreshToken), older)),
      ),
    )
    .limit(batch);
  let resealed = 0;
  for (const link of stale) {
    try {
      if (await resealIfOld(ctx, link)) resealed++;
    } catch (err) {
      // Its other token's key is gone: warned, left as it is.
      if (!(err instanceof SavedAccountEndedError)) throw err;
    }
  }
  return resealed;
}

/** The provider refusing a token or grant (as opposed to being unreachable). */
const refused = (err: unknown) =>
  err instanceof PisError &&
  err.kind === "http" &&
  (err.httpStatus === 400 || err.httpStatus === 401 || err.httpStatus === 403);

/**
 * A new access token for a link whose current one the provider refused, though our clock called it
 * fresh. The link is read again first: a refresh moments ago (ours, or another instance's) may have
 * rotated the refresh token the caller's row holds, and a spent one is better not presented.
 */
export async function refreshedAccessToken(ctx: CheckoutContext, link: LinkRow): Promise<string> {
  return accessTokenOf(ctx, (await readLink(ctx, link.id)) ?? link, { force: true });
}

/**
 * An access token for the link, refreshed first when it is about to expire. Refresh tokens rotate,
 * so two requests refreshing at once would spend the same one: no lock is held over the provider
 * call; instead the new tokens are stored only if the old refresh token is still the stored one,
 * and the loser of such a race uses the winner's tokens.
 */
export async function accessTokenOf(
  ctx: CheckoutContext,
  link: LinkRow,
  opts: { force?: boolean } = {},
): Promise<string> {
  const now = nowOf(ctx);
  if (link.status !== "active" || !link.accessToken || !link.refreshToken) throw new SavedAccountEndedError("revoked");
  if (link.expiresAt && link.expiresAt <= now) {
    await endLink(ctx, link.id, "expired");
    throw new SavedAccountEndedError("expired");
  }
  const keys = ctx.config.tokenKeys;
  if (!opts.force && link.accessExpiresAt && link.accessExpiresAt.getTime() - now.getTime() > REFRESH_AHEAD_MS) {
    const accessToken = openLinkToken(link, link.accessToken, keys);
    await resealIfOld(ctx, link);
    return accessToken;
  }

  let token;
  const refreshToken = openLinkToken(link, link.refreshToken, keys);
  try {
    token = await ctx.pis.auth.refresh(refreshToken);
  } catch (err) {
    if (!refused(err)) throw err;
    // Refused: either another request spent this refresh token first (its new tokens are stored
    // moments after the provider answered it), or the consent is gone.
    const current = await pollUntil(
      () => readLink(ctx, link.id),
      (r) => r?.status !== "active" || r.refreshToken !== link.refreshToken,
      RACE_GRACE_MS,
    );
    if (current?.status === "active" && current.refreshToken !== link.refreshToken && current.accessToken)
      return openLinkToken(current, current.accessToken, keys);
    await endLink(ctx, link.id, "revoked", "refresh_refused");
    throw new SavedAccountEndedError("revoked");
  }
  // Stored only over the refresh token presented: another refresh may have spent it first. The
  // worker re-sealing the link meanwhile (a key rotation) changes its text, not the token, so that
  // is looked through: dropping these tokens would leave a spent refresh token stored.
  let current: LinkRow | undefined = link;
  for (let tries = 0; tries < 3 && current?.status === "active"; tries++, current = await readLink(ctx, link.id)) {
    if (current.refreshToken === null || openLinkToken(current, current.refreshToken, keys) !== refreshToken) break;
    const updated = await ctx.db
      .update(accountLinks)
      .set({
        accessToken: sealToken(token.accessToken, keys),
        accessExpiresAt: new Date(nowOf(ctx).getTime() + token.accessTokenExpiresIn),
        refreshToken: sealToken(token.refreshToken, keys),
        updatedAt: nowOf(ctx),
      })
      .where(
        and(
          eq(accountLinks.id, link.id),
          eq(accountLinks.refreshToken, current.refreshToken),
          eq(accountLinks.status, "active"),
        ),
      )
      .returning({ id: accountLinks.id });
    if (updated.length > 0) return token.accessToken;
  }
  // The link ended or was refreshed meanwhile; the fresh token still works for this one call.
  if ((await readLink(ctx, link.id))?.status !== "active") throw new SavedAccountEndedError("revoked");
  return token.accessToken;
}
