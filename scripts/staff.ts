/**
 * Staff accounts from the command line, for the first admin and for an admin locked out:
 *
 *   npm run staff -- add --email you@shop.example --role admin   # prints a one-time link
 *   npm run staff -- link --email you@shop.example              # a new link (a forgotten password)
 *   npm run staff -- list
 *
 * Reads the same settings as the app (.env, DATABASE_URL or PGLITE_DIR). The embedded database
 * serves one process: stop the app first (it says so if you forget).
 */
import { createRequire } from "node:module";
import { parseArgs } from "node:util";

const { loadEnvConfig } = createRequire(import.meta.url)("@next/env") as typeof import("@next/env");
loadEnvConfig(process.cwd(), false, { info: () => {}, error: console.error });

const USAGE = `usage:
  npm run staff -- add --email you@shop.example --role admin|finance|support|viewer
  npm run staff -- link --email you@shop.example
  npm run staff -- list`;

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { email: { type: "string" }, role: { type: "string" } },
  });
  const command = positionals[0];
  if (!command || !["add", "link", "list"].includes(command) || (command !== "list" && !values.email)) {
    console.error(USAGE);
    return 2;
  }
  const [{ getDb, closeDb }, { env }, accounts] = await Promise.all([
    import("../lib/db"),
    import("../lib/env"),
    import("../lib/staff/accounts"),
  ]);
  const db = await getDb();
  const call = { db, actor: { kind: "system", label: "npm run staff" } as const };
  const linkOf = (token: string) => `${env().appUrl}/backoffice/set-password/${token}`;
  try {
    if (command === "list") {
      for (const p of await accounts.listStaff(db))
        console.log(
          `${p.email}\t${p.role}\t${p.disabledAt ? "disabled" : p.hasPassword ? "active" : "invited"}${p.demo ? "\t(sandbox demo)" : ""}`,
        );
      return 0;
    }
    if (command === "add") {
      const { member, token } = await accounts.inviteStaff(call, { email: values.email!, role: values.role ?? "" });
      console.log(`${member.email} is added as ${member.role}. Open this link within 24 hours to set the password:`);
      console.log(linkOf(token));
      return 0;
    }
    const member = (await accounts.listStaff(db)).find((p) => p.email === accounts.normalizeEmail(values.email!));
    if (!member) {
      console.error(`no staff account for ${values.email}`);
      return 1;
    }
    console.log(`Open this link within 24 hours to set the password of ${member.email}:`);
    console.log(linkOf(await accounts.resetPasswordLink(call, member.id)));
    return 0;
  } catch (err) {
    if (err instanceof accounts.StaffError) {
      console.error(err.message);
      return 1;
    }
    throw err;
  } finally {
    await closeDb();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
