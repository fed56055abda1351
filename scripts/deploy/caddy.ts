/**
 * The repository's Caddyfile (compose.yaml's proxy) run by Caddy on this machine, without Docker:
 * `npm run deploy:rehearse` (scripts/deploy/rehearse.ts, ADR 38).
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import type { Env } from "../chaos/processes";

export const CADDYFILE = path.resolve(import.meta.dirname, "Caddyfile");

/**
 * Caddy's configuration here: this machine's global options, then the repository's Caddyfile
 * itself, imported (not copied), told by its environment to use Caddy's CA and a fixed list of
 * upstreams. Caddy's data (its CA's keys) stays under `dir`, not in $HOME, and the CA is not
 * installed into the system's trust store. No admin endpoint: nothing reconfigures it while it runs.
 */
export function caddyRehearsal(dir: string, ports: { https: number; http: number; instances: number[] }) {
  // Not https_port: Caddy leaves that port out of its HTTP-to-HTTPS redirect, taking it for 443
  // behind a port forward; the site address's own port is kept.
  const config = `{
	admin off
	http_port ${ports.http}
	skip_install_trust
}
import ${CADDYFILE}
`;
  const env: Env = {
    PATH: process.env.PATH,
    HOME: dir,
    XDG_DATA_HOME: path.join(dir, "data"),
    XDG_CONFIG_HOME: path.join(dir, "config"),
    SITE_ADDRESS: `localhost:${ports.https}`,
    TLS_ISSUER: "internal",
    UPSTREAMS_FROM: "list",
    UPSTREAMS: ports.instances.map((p) => `127.0.0.1:${p}`).join(" "),
  };
  return { config, env, rootCertificate: path.join(dir, "data/caddy/pki/authorities/local/root.crt") };
}

export const caddyInstalled = () => spawnSync("caddy", ["version"]).status === 0;

/** The JSON Caddy makes of a Caddyfile under `env` (`caddy adapt`); throws with Caddy's message. */
export function adapt(configFile: string, env: Env): unknown {
  const run = spawnSync("caddy", ["adapt", "--config", configFile, "--adapter", "caddyfile"], {
    env: env as NodeJS.ProcessEnv,
    encoding: "utf8",
  });
  if (run.status !== 0) throw new Error(run.stderr.trim().split("\n").at(-1));
  return JSON.parse(run.stdout);
}
