import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CADDYFILE, adapt, caddyInstalled, caddyRehearsal } from "./caddy";

/*
 * One Caddyfile for compose.yaml and for the rehearsal on this machine (ADR 38), read by Caddy
 * itself (`caddy adapt`, a fifth of a second): compose's environment must still give what compose
 * always had, and the rehearsal's the same proxy with only the certificates and the upstreams
 * changed. Needs Debian's caddy (`npm test` installs it); fails saying so without it.
 */
type Json = Record<string, unknown>;
const dir = mkdtempSync(path.join(os.tmpdir(), "caddy-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const quiet = { PATH: process.env.PATH, HOME: dir, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir };

/** The reverse_proxy handler, wherever Caddy nested it. */
function reverseProxy(node: unknown): Json | undefined {
  if (Array.isArray(node)) return node.map(reverseProxy).find(Boolean);
  if (node === null || typeof node !== "object") return undefined;
  if ((node as Json).handler === "reverse_proxy") return node as Json;
  return Object.values(node).map(reverseProxy).find(Boolean);
}
const serverOf = (config: Json) => (config as { apps: { http: { servers: { srv0: Json } } } }).apps.http.servers.srv0;
const compose = () => adapt(CADDYFILE, { ...quiet, SITE_ADDRESS: "pay.example.com" }) as Json;

describe("the Caddyfile, as Caddy reads it", () => {
  it("is read by Debian's caddy, which is installed", () => {
    expect(caddyInstalled(), "caddy is missing: run `bash scripts/ensure-package.sh caddy caddy caddy`").toBe(true);
  });

  it("under compose.yaml's environment: HTTPS on 443 from Let's Encrypt, the instances from Docker's DNS", () => {
    const config = compose();
    expect(serverOf(config).listen).toEqual([":443"]);
    // No issuer named: Caddy's default, ACME.
    expect((config.apps as Json).tls).toBeUndefined();
    const proxy = reverseProxy(config)!;
    expect(proxy.dynamic_upstreams).toEqual({ source: "a", name: "app", port: "3000", refresh: 5_000_000_000 });
    expect(proxy.upstreams).toBeUndefined();
  });

  it("under the rehearsal's: Caddy's own CA on its port, the listed instances, and otherwise the same proxy", () => {
    const rehearsal = caddyRehearsal(dir, { https: 8443, http: 8080, instances: [3400, 3401, 3402] });
    const file = path.join(dir, "Caddyfile");
    writeFileSync(file, rehearsal.config);
    const config = adapt(file, rehearsal.env) as Json;
    expect(serverOf(config).listen).toEqual([":8443"]);
    expect(config.admin).toEqual({ disabled: true });
    expect(config.apps).toMatchObject({
      http: { http_port: 8080 },
      tls: { automation: { policies: [{ subjects: ["localhost"], issuers: [{ module: "internal" }] }] } },
      // Never into this machine's trust store: only the rehearsal's own clients trust it.
      pki: { certificate_authorities: { local: { install_trust: false } } },
    });
    const { upstreams, ...proxy } = reverseProxy(config)!;
    expect(upstreams).toEqual([{ dial: "127.0.0.1:3400" }, { dial: "127.0.0.1:3401" }, { dial: "127.0.0.1:3402" }]);
    // Load balancing, health, retries, the request id and the keep-alive exactly as deployed.
    const { dynamic_upstreams: _, ...deployed } = reverseProxy(compose())!;
    expect(proxy).toEqual(deployed);
  });

  it("refuses a TLS_ISSUER or UPSTREAMS_FROM it does not know, naming it, rather than fall back", () => {
    const with_ = (extra: Record<string, string>) => () =>
      adapt(CADDYFILE, { ...quiet, SITE_ADDRESS: "pay.example.com", ...extra });
    expect(with_({ TLS_ISSUER: "letsencrypt" })).toThrow(/tls-letsencrypt/);
    expect(with_({ UPSTREAMS_FROM: "static" })).toThrow(/upstreams-static/);
  });
});
