import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import type { TestProject } from "vitest/node";
import { createSandbox } from "../lib/sandbox/app";

// One real sandbox provider for the whole unit run: lib/pis and lib/checkout tests talk to it over
// HTTP exactly as the app does, instead of against mocks. And one migrated embedded database, whose
// dump every test's new PGlite database starts from (lib/db/pglite-worker.mjs): initdb and the
// migrations took 3-5 s per database, over a hundred times a run.
export default async function setup(project: TestProject) {
  const sandbox = createSandbox({ webhookRetryDelaysMs: [50, 100] });
  const url = await sandbox.listen(0);
  project.provide("sandboxUrl", url);

  const dir = mkdtempSync(path.join(os.tmpdir(), "pglite-seed-"));
  const seed = await PGlite.create();
  await migrate(drizzle(seed), { migrationsFolder: path.join(project.config.root, "lib/db/migrations") });
  const file = path.join(dir, "seed.tar");
  writeFileSync(file, Buffer.from(await (await seed.dumpDataDir("none")).arrayBuffer()));
  await seed.close();
  // Test workers and the processes they start inherit it.
  process.env.PGLITE_SEED_FILE = file;

  return async () => {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    sandboxUrl: string;
  }
}
