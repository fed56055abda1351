import type { Db } from "../db";
import { hasOwnStaff, settleDemoAdmin } from "./accounts";

/**
 * At each instance's start: sandbox mode seeds its demo admin; a deployment with no staff of its
 * own yet is told, in one line, how to make the first admin (and that BACKOFFICE_PASSWORD, if an
 * older deployment still sets it, no longer opens anything).
 */
export async function settleStaff(
  db: Db,
  opts: { sandbox: boolean; legacyBackofficePassword: boolean },
): Promise<string | undefined> {
  await settleDemoAdmin(db, opts.sandbox);
  if (opts.sandbox || (await hasOwnStaff(db))) return undefined;
  return (
    "no staff account yet: create the first admin with `npm run staff -- add --email you@shop.example --role admin` " +
    "and open the link it prints" +
    (opts.legacyBackofficePassword
      ? " (BACKOFFICE_PASSWORD is no longer used: staff sign in with their own accounts)"
      : "")
  );
}
