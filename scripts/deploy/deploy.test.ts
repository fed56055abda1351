import { existsSync, readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { REQUIRED_WITH_REAL_PROVIDER, SETTING_DOCS, loadEnv } from "../../lib/env";
import { REAL_PROVIDER_ENV } from "../../lib/env-fixtures";

/*
 * No Docker daemon runs here, so the deployment files are checked for what can be checked without
 * one: the compose file is valid YAML whose app gets every setting lib/env.ts requires (spelled as
 * lib/env.ts spells them), three instances, a proxy and a grace period; the Dockerfile is
 * multi-stage, runs as a non-root user, has a health check and starts the standalone server.
 * That the standalone server itself starts against Postgres: e2e/standalone.spec.ts.
 */
const root = path.resolve(import.meta.dirname, "../..");
const compose = parse(readFileSync(path.join(root, "compose.yaml"), "utf8")) as {
  services: Record<
    string,
    {
      environment?: Record<string, string>;
      deploy?: { replicas?: number };
      stop_grace_period?: string;
      volumes?: string[];
      depends_on?: unknown;
      image?: string;
      build?: string;
      env_file?: string | string[];
      profiles?: string[];
    }
  >;
};
const app = compose.services.app!;

describe("compose.yaml", () => {
  it("runs three instances of the app on one Postgres behind a proxy", () => {
    const always = Object.entries(compose.services).filter(([, s]) => !s.profiles);
    expect(always.map(([name]) => name).sort()).toEqual(["app", "postgres", "proxy"]);
    expect(app.deploy?.replicas).toBe(3);
    expect(app.environment?.DATABASE_URL).toMatch(/^postgres:\/\/.*@postgres:5432\//);
    expect(app.stop_grace_period).toBe("30s");
    const caddyfile = compose.services.proxy!.volumes!.find((v) => v.includes("Caddyfile"))!.split(":")[0]!;
    expect(existsSync(path.join(root, caddyfile))).toBe(true);
  });

  it("gives the app every setting lib/env.ts requires with a real provider, and only settings it knows", () => {
    const names = Object.keys(app.environment ?? {});
    for (const required of [...REQUIRED_WITH_REAL_PROVIDER, "APP_URL", "PIS_BASE_URL", "DATABASE_URL"])
      expect(names).toContain(required);
    expect(names.filter((n) => !(n in SETTING_DOCS))).toEqual([]);
    // The proxy appends the client's address: one hop to trust.
    expect(app.environment?.TRUSTED_PROXY_HOPS).toBe("1");
  });

  it("with its required values given (as an operator's .env would), passes the app's deployment checks", () => {
    const values: Record<string, string> = {};
    for (const [name, value] of Object.entries(app.environment ?? {})) {
      // ${NAME:?message} and ${NAME:-default}: the operator's value, or the default.
      values[name] = value.replace(
        /\$\{(\w+)(?::[?-]([^}]*))?\}/g,
        (_m, ref: string, rest: string | undefined) =>
          (REAL_PROVIDER_ENV as Record<string, string>)[ref] ??
          (ref === "POSTGRES_PASSWORD" ? "pg-secret" : (rest ?? "")),
      );
    }
    expect(() => loadEnv(values)).not.toThrow();
  });
});

describe("settings and secrets", () => {
  /** Whether Docker leaves `name` out of the build context: the last pattern that matches it decides. */
  const ignored = (name: string) => {
    let out = false;
    for (const line of readFileSync(path.join(root, ".dockerignore"), "utf8").split("\n")) {
      const pattern = line.trim();
      if (pattern === "" || pattern.startsWith("#")) continue;
      const negated = pattern.startsWith("!");
      const glob = negated ? pattern.slice(1) : pattern;
      const re = new RegExp(`^${glob.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[^/]*")}$`);
      if (re.test(name)) out = !negated;
    }
    return out;
  };

  it("never enter the image: .env and .env.* stay out of the build context (next build would copy them in)", () => {
    for (const file of [".env", ".env.production", ".env.local", ".env.production.local"])
      expect(ignored(file), file).toBe(true);
    expect(ignored(".env.example")).toBe(false);
    // And should a build context hold one anyway, the standalone folder the image copies drops it.
    expect(readFileSync(path.join(root, "Dockerfile"), "utf8")).toMatch(/rm -f \.next\/standalone\/\.env /);
  });

  it("reach the app at run time: every setting of .env, not only the ones compose.yaml lists", () => {
    expect([app.env_file].flat()).toContain(".env");
  });

  it("that compose.yaml reads from .env are all in .env.example (SITE_ADDRESS, POSTGRES_PASSWORD, ...)", () => {
    const example = readFileSync(path.join(root, ".env.example"), "utf8");
    const read = new Set(
      [...readFileSync(path.join(root, "compose.yaml"), "utf8").matchAll(/\$\{(\w+)/g)].map((m) => m[1]!),
    );
    expect(read).toContain("SITE_ADDRESS");
    expect([...read].filter((name) => !example.includes(`# ${name}=`))).toEqual([]);
  });
});

describe("Caddyfile", () => {
  const caddyfile = readFileSync(path.join(root, "scripts/deploy/Caddyfile"), "utf8");

  it("closes an idle connection to the app before the app does (no request sent on one being closed)", () => {
    const keepalive = /^\s*keepalive (\d+)s$/m.exec(caddyfile)?.[1];
    expect(keepalive).toBeDefined();
    // What the app's server (Next's, on Node's http) keeps an idle connection open for.
    const appKeepAliveMs = http.createServer().keepAliveTimeout;
    expect(Number(keepalive) * 1000).toBeLessThan(appKeepAliveMs);
  });
});

describe("Dockerfile", () => {
  const dockerfile = readFileSync(path.join(root, "Dockerfile"), "utf8");

  it("builds in stages and runs the standalone server as a non-root user, with a health check", () => {
    expect(dockerfile.match(/^FROM /gm)?.length).toBeGreaterThanOrEqual(3);
    const run = dockerfile.slice(dockerfile.lastIndexOf("\nFROM "));
    expect(run).toMatch(/^USER (?!root)\w+/m);
    expect(run.indexOf("USER ")).toBeLessThan(run.indexOf("CMD "));
    expect(run).toMatch(/^HEALTHCHECK .*\n?.*\/api\/health/m);
    expect(run).toMatch(/^CMD \["node", "server\.js"\]/m);
    expect(run).toContain(".next/standalone");
  });

  it("builds and runs on one Node line that still gets security releases", () => {
    // Node's release schedule (nodejs.org/about/previous-releases): the end of each LTS line.
    const endOfLife: Record<string, string> = {
      "20": "2026-04-30",
      "22": "2027-04-30",
      "24": "2028-04-30",
      "26": "2029-04-30",
    };
    const image = /^ARG NODE_IMAGE=node:(\d+)-[\w-]+$/m.exec(dockerfile);
    expect(image, "one ARG NODE_IMAGE=node:<major>-<variant> for every stage").not.toBeNull();
    for (const stage of dockerfile.match(/^FROM \S+/gm) ?? []) expect(stage).toBe("FROM ${NODE_IMAGE}");
    const major = image![1]!;
    expect(endOfLife[major], `Node ${major} is not an LTS line`).toBeDefined();
    expect(Date.now(), `Node ${major}'s support ended on ${endOfLife[major]}`).toBeLessThan(
      Date.parse(`${endOfLife[major]}T00:00:00Z`),
    );
  });
});
