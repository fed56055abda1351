import type { TestProject } from "vitest/node";
import { createSandbox } from "../lib/sandbox/app";

// One real sandbox provider for the whole unit run: lib/pis and lib/checkout tests talk to it over
// HTTP exactly as the app does, instead of against mocks.
export default async function setup(project: TestProject) {
  const sandbox = createSandbox({ webhookRetryDelaysMs: [50, 100] });
  const url = await sandbox.listen(0);
  project.provide("sandboxUrl", url);
  return () => sandbox.close();
}

declare module "vitest" {
  export interface ProvidedContext {
    sandboxUrl: string;
  }
}
