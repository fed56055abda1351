/**
 * `npm run build`: Next's production build, then V8's explicit compile hint on the framework's
 * chunks (ADR 12, "The framework's chunks are compiled while they download"). `npm start`,
 * `npm test`, `npm run bench` and the Dockerfile all build through here, so no build serves the
 * chunks without it.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { buildSync } from "esbuild";

const root = path.resolve(import.meta.dirname, "..");

/**
 * A script that starts with this line has all its functions compiled while it downloads, off the
 * main thread (Chrome 136 and later; other browsers read a comment). Without it V8 compiles each
 * function on the main thread the first time it runs, which for the framework is during hydration.
 */
export const COMPILE_HINT = "//# allFunctionsCalledOnLoad\n";

/**
 * Marks the chunks every page runs as it loads (the build manifest's `rootMainFiles`: React DOM,
 * Next's client and Turbopack's runtime). Our own chunks are left alone: marking them too measured
 * no better, and a lazily loaded chunk may be mostly code the page never runs. Returns the files
 * marked; running it again changes nothing.
 */
export function addCompileHints(distDir = path.join(root, ".next")): string[] {
  const manifestFile = path.join(distDir, "build-manifest.json");
  const manifest = JSON.parse(readFileSync(manifestFile, "utf8")) as { rootMainFiles?: unknown };
  const files = manifest.rootMainFiles;
  // A Next that stopped listing them would otherwise lose the hint without a word.
  if (
    !Array.isArray(files) ||
    files.length === 0 ||
    !files.every((f): f is string => typeof f === "string" && f.endsWith(".js"))
  )
    throw new Error(`${manifestFile} has no rootMainFiles to mark with the compile hint`);
  for (const file of files) {
    const chunk = path.join(distDir, file);
    const code = readFileSync(chunk, "utf8");
    if (!code.startsWith(COMPILE_HINT)) writeFileSync(chunk, COMPILE_HINT + code);
  }
  return files;
}

function newestSourceMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
    const p = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSourceMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/** Whether the build in `dir`/.next is missing or older than a source it was built from (`npm start`, `npm run deploy:rehearse`). */
export function buildIsStale(dir = root): boolean {
  const buildId = path.join(dir, ".next/BUILD_ID");
  if (!existsSync(buildId)) return true;
  const built = statSync(buildId).mtimeMs;
  const sources = ["app", "components", "lib", "public"].map((d) => newestSourceMtime(path.join(dir, d)));
  const files = ["package.json", "next.config.mjs", "tsconfig.json", "scripts/build.ts"].map(
    (f) => statSync(path.join(dir, f)).mtimeMs,
  );
  return Math.max(...sources, ...files) > built;
}

/** Next's build, then the hints. Returns the exit status. */
export function buildApp(env: NodeJS.ProcessEnv = process.env): number {
  const next = path.join(root, "node_modules/next/dist/bin/next");
  const built = spawnSync(process.execPath, [next, "build"], {
    cwd: root,
    stdio: "inherit",
    env: { ...env, NODE_ENV: "production" },
  });
  if (built.status !== 0) return built.status ?? 1;
  const marked = addCompileHints();
  console.log(`compile hint added to ${marked.length} framework chunks`);
  bundleStaffCli();
  return 0;
}

/**
 * `npm run staff` for the standalone server, which has neither tsx nor the sources: one file beside
 * server.js (`node staff.mjs add --email ...`), using the packages Next already traced there.
 */
export function bundleStaffCli(outDir = path.join(root, ".next/standalone")): string {
  const outfile = path.join(outDir, "staff.mjs");
  buildSync({
    entryPoints: [path.join(root, "scripts/staff.ts")],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    // Native code, WASM and the driver stay in node_modules, where the server finds them too.
    external: ["@node-rs/argon2", "@electric-sql/pglite", "@electric-sql/pglite/*", "pg", "@next/env"],
    banner: {
      js: 'import { createRequire as bundleRequire } from "node:module"; const require = bundleRequire(import.meta.url);',
    },
    logLevel: "warning",
  });
  return outfile;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) process.exit(buildApp());
