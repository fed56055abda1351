import type { IncomingMessage } from "node:http";
import type { SandboxContext } from "./context";
import type { Project } from "./projects";
import type { ApiVersion } from "./versions";

/** One API call, authenticated. */
export interface ApiCall {
  ctx: SandboxContext;
  req: IncomingMessage;
  url: URL;
  version: ApiVersion;
  project: Project;
}
