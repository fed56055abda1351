/**
 * Backups of the embedded database (ADR 37):
 *
 *   npm run backup -- FILE              # while the app runs or not
 *   npm run restore -- FILE [--force]   # with the app stopped
 *
 * Both take `--dir DIR` in place of PGLITE_DIR. A Postgres database (DATABASE_URL) is backed up
 * with pg_dump instead (README, "Backups"). One line out; a refusal is one line and exit 1.
 */
import { createRequire } from "node:module";
import path from "node:path";
import { parseArgs } from "node:util";
import { backupEmbedded, restoreEmbedded } from "../lib/backup/embedded";
import { BackupRefused } from "../lib/backup/format";
import { databaseSettings, EnvError } from "../lib/env";

const root = path.resolve(import.meta.dirname, "..");
// npm runs scripts in the project folder; a FILE is named from where the operator typed it.
const typedIn = process.env.INIT_CWD ?? process.cwd();
process.chdir(root);
const { loadEnvConfig } = createRequire(import.meta.url)("@next/env") as typeof import("@next/env");
loadEnvConfig(root, false, { info: () => {}, error: console.error });

const USAGE = `usage:
  npm run backup -- FILE [--dir DIR]
  npm run restore -- FILE [--dir DIR] [--force]`;

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { dir: { type: "string" }, force: { type: "boolean", default: false } },
    });
  } catch (err) {
    console.error(`${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  const [command, file, ...extra] = parsed.positionals;
  if (!file || extra.length > 0 || (command !== "backup" && command !== "restore")) {
    console.error(USAGE);
    return 2;
  }
  if (command === "backup" && parsed.values.force) {
    console.error(`--force is for restore\n${USAGE}`);
    return 2;
  }
  const settings = databaseSettings();
  if (settings.databaseUrl && !parsed.values.dir) {
    console.error(
      `DATABASE_URL is set: back up that Postgres database with pg_dump -Fc and restore it with pg_restore (README, "Backups")`,
    );
    return 2;
  }
  const dir = parsed.values.dir ? path.resolve(typedIn, parsed.values.dir) : settings.pgliteDir;
  const target = path.resolve(typedIn, file);
  const started = Date.now();
  if (command === "backup") {
    const taken = await backupEmbedded({ dir, file: target });
    console.log(
      `backed up ${dir} to ${file} (${mb(taken.bytes)}, ${taken.header.migrations.lastTag ?? "no migrations"}, ${
        taken.from === "app" ? "taken by the running app" : "no app was running"
      }, ${seconds(started)})`,
    );
  } else {
    const restored = await restoreEmbedded({ dir, file: target, force: parsed.values.force });
    console.log(
      `restored ${file} (taken ${restored.header.createdAt}, ${restored.header.migrations.lastTag ?? "no migrations"}) into ${dir}${
        restored.keptAside ? `; the database that was there is kept in ${restored.keptAside}` : ""
      } (${seconds(started)}); the app migrates it when it starts`,
    );
  }
  return 0;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof BackupRefused) console.error(err.message);
    else if (err instanceof EnvError) console.error(err.message);
    else console.error(`${(err as Error).message ?? err}`.split("\n")[0]);
    process.exit(1);
  },
);
