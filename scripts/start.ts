/**
 * `npm start`: validates the settings, brings the database schema up to date, builds the app if
 * the build is missing or older than the sources, starts the sandbox provider when no real
 * provider is configured, then serves the app. `--dev` serves with `next dev` instead.
 */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { openDb } from "../lib/db/client";
import { lockPgliteDir } from "../lib/db/pglite-lock";
import { databaseFailure, EnvError, loadEnv } from "../lib/env";
import { buildApp, buildIsStale } from "./build";
import { loadStartSettings, passLines, processesFor, type ProcessSpec } from "./start-plan";

const root = path.resolve(import.meta.dirname, "..");
process.chdir(root);
process.env.NEXT_TELEMETRY_DISABLED ??= "1";
const dev = process.argv.includes("--dev");

let settings: ReturnType<typeof loadEnv>;
try {
  settings = loadStartSettings(root, dev);
} catch (err) {
  if (err instanceof EnvError) {
    console.error(err.message);
    process.exit(1);
  }
  throw err;
}

const children: ChildProcess[] = [];
let stopping = false;
function stop(code: number) {
  if (stopping) return;
  stopping = true;
  for (const c of children) if (c.exitCode === null) c.kill("SIGTERM");
  setTimeout(() => process.exit(code), 3000).unref();
  Promise.all(children.map((c) => (c.exitCode === null ? new Promise((r) => c.once("exit", r)) : null))).then(() =>
    process.exit(code),
  );
}
process.on("SIGINT", () => stop(0));
process.on("SIGTERM", () => stop(0));

function run({ name, args, optional, dropFromStderr }: ProcessSpec) {
  const child = spawn(process.execPath, args, {
    stdio: ["inherit", "inherit", dropFromStderr ? "pipe" : "inherit"],
    env: process.env,
    cwd: root,
  });
  if (dropFromStderr) passLines(child.stderr!, process.stderr, dropFromStderr);
  child.on("exit", (code, signal) => {
    if (optional && !stopping) console.error(`${name} exited (${signal ?? code}); the app goes on without it.`);
    else if (!stopping) {
      console.error(`${name} exited (${signal ?? code}); stopping.`);
      stop(code || 1);
    }
  });
  children.push(child);
  return child;
}

async function main() {
  if (!settings.databaseUrl && settings.pgliteDir !== "memory://") {
    // Held for this process's life and handed to `next start` (its child), so a second
    // `npm start` in this folder stops here, before it builds or touches the database.
    try {
      await lockPgliteDir(settings.pgliteDir, { port: settings.port });
    } catch (err) {
      console.error((err as Error).message);
      process.exit(1);
    }
  }
  let db: Awaited<ReturnType<typeof openDb>>;
  try {
    db = await openDb({ databaseUrl: settings.databaseUrl, pgliteDir: settings.pgliteDir, port: settings.port });
  } catch (err) {
    console.error(databaseFailure(settings, err));
    process.exit(1);
  }
  await db.close();
  console.log(`database ready (${db.kind === "postgres" ? "Postgres" : `embedded PGlite in ${settings.pgliteDir}`})`);

  if (!dev && buildIsStale()) {
    console.log("building the app (npm run build)...");
    const status = buildApp();
    if (status !== 0) process.exit(status);
  }

  for (const spec of processesFor(settings, dev)) run(spec);
  console.log(
    `shop and checkout on ${settings.appUrl}${settings.sandbox ? `, sandbox provider on http://localhost:${settings.sandboxPort}, demo merchant site with the embedded bank picker on http://localhost:${settings.embedDemoPort}` : ""}`,
  );
}

main().catch((err) => {
  console.error(err);
  stop(1);
});
