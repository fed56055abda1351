import { timingSafeEqual } from "node:crypto";

/** A merchant's project at the provider: its API credentials and the secret that signs its webhooks. */
export interface Project {
  id: string;
  name: string;
  clientId: string;
  clientSecret: string;
  /** The webhook endpoint secret; distinct from clientSecret, as at the real provider. */
  webhookSecret: string;
}

/** The documented test project (README.md); lib/env.ts repeats these values as its sandbox defaults. */
export const DEFAULT_PROJECT: Project = {
  id: "sandbox-project",
  name: "Sandbox test project",
  clientId: "sandbox-client-id",
  clientSecret: "sandbox-client-secret",
  webhookSecret: "sandbox-webhook-secret",
};

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given, "utf8");
  const b = Buffer.from(expected, "utf8");
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The project these credentials belong to, or undefined when either is missing or wrong. */
export function authenticate(
  projects: ReadonlyMap<string, Project>,
  clientId: string | undefined,
  clientSecret: string | undefined,
): Project | undefined {
  if (!clientId || !clientSecret) return undefined;
  const project = projects.get(clientId);
  return project && sameSecret(clientSecret, project.clientSecret) ? project : undefined;
}
