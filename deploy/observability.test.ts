import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { metrics } from "@/lib/metrics/registry";
import { filled, panelQueries as dashboardQueries } from "./dashboard-queries";

/**
 * What an operator loads (README, "Dashboard and alerts"; ADR 36): the alert rules as Prometheus
 * reads them, their unit tests, the scrape config, the dashboard's and the rules' queries against
 * the metrics the app exports, and compose's observability profile pointing at files that exist.
 */
const root = path.resolve(__dirname, "..");
const at = (p: string) => path.join(root, p);
const read = (p: string) => readFileSync(at(p), "utf8");
const yamlOf = (p: string) => parse(read(p)) as Record<string, unknown>;

const PROMTOOL_MISSING =
  "promtool is missing: run `bash scripts/ensure-package.sh promtool prometheus` (Debian's prometheus package; npm test does it)";

function promtool(...args: string[]): { status: number | null; output: string } {
  const run = spawnSync("promtool", args, { cwd: root, encoding: "utf8", timeout: 20_000 });
  if (run.error && (run.error as NodeJS.ErrnoException).code === "ENOENT") throw new Error(PROMTOOL_MISSING);
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

interface Rule {
  alert: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}
const rules = (yamlOf("deploy/prometheus/alerts.yml").groups as { rules: Rule[] }[]).flatMap((g) => g.rules);

describe("alert rules, checked by promtool", () => {
  it("finds promtool, or says how to get it", () => {
    const run = spawnSync("promtool", ["--version"], { encoding: "utf8" });
    expect(run.error, PROMTOOL_MISSING).toBeUndefined();
  });

  it("loads alerts.yml as Prometheus would", () => {
    const { status, output } = promtool("check", "rules", "deploy/prometheus/alerts.yml");
    expect(output).toContain(`SUCCESS: ${rules.length} rules found`);
    expect(status, output).toBe(0);
  });

  it("fires each alert on the series it is for, and not on the others (alerts.test.yml)", () => {
    const { status, output } = promtool("test", "rules", "deploy/prometheus/alerts.test.yml");
    expect(status, output).toBe(0);
    // Every alert has a case where it fires and one where it stays quiet.
    const tests = yamlOf("deploy/prometheus/alerts.test.yml").tests as {
      alert_rule_test: { alertname: string; exp_alerts: unknown[] }[];
    }[];
    const cases = tests.flatMap((t) => t.alert_rule_test);
    for (const { alert } of rules) {
      expect(
        cases.some((c) => c.alertname === alert && c.exp_alerts.length > 0),
        `${alert} fires in a test`,
      ).toBe(true);
      expect(
        cases.some((c) => c.alertname === alert && c.exp_alerts.length === 0),
        `${alert} stays quiet in a test`,
      ).toBe(true);
    }
  });

  it("gives every alert a wait, a severity and what on-call should check first", () => {
    expect(rules.map((r) => r.alert).sort()).toEqual([
      "CheckoutAllInstancesDown",
      "CheckoutDatabaseUnread",
      "CheckoutHigh5xxRate",
      "CheckoutInstanceDown",
      "CheckoutNotificationsLate",
      "CheckoutPaymentsStuck",
      "CheckoutProviderErrors",
    ]);
    for (const r of rules) {
      expect(r.for, r.alert).toMatch(/^\d+m$/);
      expect(["warning", "critical"], r.alert).toContain(r.labels?.severity);
      expect(r.annotations?.summary, r.alert).toBeTruthy();
      expect(r.annotations?.description, r.alert).toMatch(/Check/);
    }
  });
});

describe("prometheus.yml", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "checkout-prometheus-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("is a valid config as it stands", () => {
    const { status, output } = promtool("check", "config", "--syntax-only", "deploy/prometheus/prometheus.yml");
    expect(status, output).toBe(0);
  });

  it("loads its rules and token file when they are where it says (the token written at start)", () => {
    // The token file exists only in the running container: the same config, pointed at a copy.
    const config = read("deploy/prometheus/prometheus.yml");
    expect(config).toContain("credentials_file: /prometheus/metrics_token");
    writeFileSync(path.join(dir, "prometheus.yml"), config.replace("/prometheus/metrics_token", `${dir}/token`));
    writeFileSync(path.join(dir, "token"), "a-metrics-token-of-some-length");
    copyFileSync(at("deploy/prometheus/alerts.yml"), path.join(dir, "alerts.yml"));
    const { status, output } = promtool("check", "config", path.join(dir, "prometheus.yml"));
    expect(output).toContain(`SUCCESS: ${rules.length} rules found`);
    expect(status, output).toBe(0);
  });

  it("scrapes every replica of compose's app service at the metrics route, with a bearer token", () => {
    const [job] = yamlOf("deploy/prometheus/prometheus.yml").scrape_configs as Record<string, unknown>[];
    expect(job).toMatchObject({
      job_name: "checkout",
      metrics_path: "/api/metrics",
      dns_sd_configs: [{ names: ["app"], type: "A", port: 3000 }],
      authorization: { type: "Bearer" },
    });
    // The alerts select this job.
    for (const r of rules) expect(r.expr, r.alert).toContain('job="checkout"');
  });
});

/** A query's metric names, and the label names it selects or groups on. */
function namesIn(expr: string): { metrics: Set<string>; selectors: [string, string[]][]; groupings: string[] } {
  let e = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""')
    .replace(/\$\{?\w+\}?/g, "")
    .replace(/\[[^\]]*\]/g, "");
  const selectors: [string, string[]][] = [];
  e = e.replace(/([a-zA-Z_:][a-zA-Z0-9_:]*)\s*\{([^}]*)\}/g, (_, name: string, body: string) => {
    selectors.push([name, [...body.matchAll(/(\w+)\s*(?:=~|!~|!=|=)/g)].map((m) => m[1]!)]);
    return ` ${name} `;
  });
  const groupings: string[] = [];
  e = e.replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\(([^)]*)\)/g, (_, labels: string) => {
    groupings.push(
      ...labels
        .split(",")
        .map((l) => l.trim())
        .filter(Boolean),
    );
    return " ";
  });
  e = e.replace(/\b\d+(?:\.\d+)?(?:e[+-]?\d+)?(?:ms|s|m|h|d|w|y)?\b/gi, " ");
  const keywords = new Set(["and", "or", "unless", "bool", "offset", "by", "without", "on", "ignoring"]);
  const found = [...e.matchAll(/([a-zA-Z_:][a-zA-Z0-9_:]*)(?!\s*\()/g)]
    .map((m) => m[1]!)
    // A name cut short by the lookahead (`histogram_quantil` of `histogram_quantile(`) is no name.
    .filter((n, i, all) => !keywords.has(n) && all.indexOf(n) === i);
  const functions = new Set([...e.matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)\s*\(/g)].map((m) => m[1]!));
  return {
    metrics: new Set(found.filter((n) => ![...functions].some((f) => f.startsWith(n)))),
    selectors,
    groupings,
  };
}

describe("the dashboard's and the alerts' queries", () => {
  interface Panel {
    title: string;
    type: string;
    datasource?: { uid: string };
    targets?: { expr: string; datasource?: { uid: string } }[];
  }
  const dashboard = JSON.parse(read("deploy/grafana/checkout.json")) as {
    uid: string;
    panels: Panel[];
    templating: { list: { name: string; type: string; query: unknown; current?: { value: string } }[] };
  };
  const panelQueries = dashboardQueries(root).map((q) => ({ where: q.panel, expr: q.expr, zero: q.zeroWhenEmpty }));
  const variableQueries = dashboard.templating.list.flatMap((v) => {
    if (v.type !== "query") return [];
    const q = (v.query as { query: string }).query;
    const m = /^label_values\((.*),\s*(\w+)\)$/.exec(q);
    if (!m) throw new Error(`variable ${v.name}: not label_values(query, label): ${q}`);
    return [{ where: `variable ${v.name}`, expr: m[1]!, label: m[2]! }];
  });
  const queries = [
    ...panelQueries,
    ...variableQueries,
    ...rules.map((r) => ({ where: `alert ${r.alert}`, expr: r.expr })),
  ];

  /** What the app exports: its registry's families (default process metrics too), as scraped, plus `up`. */
  function exported(): Map<string, Set<string>> {
    const names = new Map<string, Set<string>>([["up", new Set()]]);
    for (const m of metrics().registry.getMetricsAsArray()) {
      const { name, labelNames = [] } = m as unknown as { name: string; labelNames?: string[] };
      const type = String(m.type);
      const suffixes =
        type === "histogram" ? ["_bucket", "_sum", "_count"] : type === "summary" ? ["", "_sum", "_count"] : [""];
      const extra = (s: string) => (s === "_bucket" ? ["le"] : type === "summary" && s === "" ? ["quantile"] : []);
      for (const s of suffixes) names.set(`${name}${s}`, new Set([...labelNames, ...extra(s)]));
    }
    return names;
  }

  it("reads names from a query as Prometheus would (the checker itself)", () => {
    const got = namesIn(
      'histogram_quantile(0.95, sum by (route, le) (rate(checkout_http_request_duration_seconds_bucket{job=~"$job", status=~"5.."}[$__rate_interval]))) > 1e3 and up offset 5m',
    );
    expect([...got.metrics]).toEqual(["checkout_http_request_duration_seconds_bucket", "up"]);
    expect(got.selectors).toEqual([["checkout_http_request_duration_seconds_bucket", ["job", "status"]]]);
    expect(got.groupings).toEqual(["route", "le"]);
  });

  const fill = (expr: string, range = "6h") => filled(expr, { range, rateInterval: "1m" });

  it("are PromQL Prometheus parses, with Grafana's variables filled in", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "checkout-dashboard-"));
    try {
      // Each query as a recording rule: promtool parses every expression of a rule file.
      const group = {
        name: "dashboard",
        rules: [...panelQueries, ...variableQueries].map((q, i) => ({
          record: `dashboard_query_${i}`,
          expr: fill(q.expr),
        })),
      };
      writeFileSync(path.join(dir, "queries.yml"), JSON.stringify({ groups: [group] }));
      const { status, output } = promtool("check", "rules", path.join(dir, "queries.yml"));
      expect(status, output).toBe(0);
      expect(output).toContain(`SUCCESS: ${group.rules.length} rules found`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('read 0 % errors on healthy traffic (not "No data") and the true share when some fail', () => {
    // Prometheus's own engine (promtool's expression tests) over ten minutes of made-up series:
    // a share whose numerator has no series at all is an empty answer, which Grafana shows as
    // "No data", the look of a dashboard that is broken, on exactly the day all is well.
    const share = (title: string) => {
      const q = panelQueries.filter((p) => p.where === title);
      expect(q, title).toHaveLength(1);
      return fill(q[0]!.expr, "10m");
    };
    const http = (status: string, perMinute: number) => ({
      series: `checkout_http_request_duration_seconds_count{job="checkout",instance="a:3000",route="/api/checkouts",status="${status}"}`,
      values: `0+${perMinute}x20`,
    });
    const provider = (outcome: string, perMinute: number) => ({
      series: `checkout_provider_request_duration_seconds_count{job="checkout",instance="a:3000",operation="payment_initiate",outcome="${outcome}"}`,
      values: `0+${perMinute}x20`,
    });
    const evaluate = (input: object[], expected: [string, string, number][]) => ({
      interval: "1m",
      input_series: input,
      promql_expr_test: expected.map(([title, labels, value]) => ({
        expr: share(title),
        eval_time: "15m",
        exp_samples: [{ labels, value }],
      })),
    });
    const dir = mkdtempSync(path.join(tmpdir(), "checkout-dashboard-"));
    try {
      const tests = {
        rule_files: [],
        tests: [
          evaluate(
            [http("200", 60), provider("ok", 10)],
            [
              ["5xx share (range)", "{}", 0],
              ["Provider error ratio by operation", '{operation="payment_initiate"}', 0],
            ],
          ),
          evaluate(
            [http("200", 60), http("503", 20), provider("ok", 30), provider("timeout", 10)],
            [
              ["5xx share (range)", "{}", 0.25],
              ["Provider error ratio by operation", '{operation="payment_initiate"}', 0.25],
            ],
          ),
        ],
      };
      // The panels that count failures, empty when none happened, say 0 instead.
      const failures = panelQueries.filter(
        (q) => /status=~"[45]\.\."|outcome!="ok"/.test(q.expr) && !q.expr.includes(" / "),
      );
      expect(failures).toHaveLength(3);
      for (const q of failures) expect(q.zero, q.where).toBe(true);
      writeFileSync(path.join(dir, "shares.test.yml"), JSON.stringify(tests));
      const { status, output } = promtool("test", "rules", path.join(dir, "shares.test.yml"));
      expect(status, output).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("name only metrics the app exports, with labels they have", () => {
    const names = exported();
    const scrapeLabels = ["job", "instance"];
    let seen = 0;
    for (const q of queries) {
      const { metrics: used, selectors, groupings } = namesIn(q.expr);
      seen += used.size;
      for (const name of used) expect(names.has(name), `${q.where}: ${name} is not exported`).toBe(true);
      for (const [name, labels] of selectors)
        for (const l of labels)
          expect([...scrapeLabels, ...(names.get(name) ?? [])], `${q.where}: ${name} has no label ${l}`).toContain(l);
      const usable = new Set([...scrapeLabels, ...[...used].flatMap((n) => [...(names.get(n) ?? [])])]);
      for (const l of groupings) expect(usable.has(l), `${q.where}: no metric of it has the label ${l}`).toBe(true);
      if ("label" in q) expect(usable.has(q.label as string), `${q.where}: label ${q.label as string}`).toBe(true);
    }
    expect(seen).toBeGreaterThan(40);
  });

  it("shows every metric of the checkout's own on the dashboard", () => {
    const onDashboard = new Set(panelQueries.flatMap((q) => [...namesIn(q.expr).metrics]));
    const own = [...exported().keys()].filter((n) => n.startsWith("checkout_"));
    const families = new Set(own.map((n) => n.replace(/_(bucket|sum|count)$/, "")));
    for (const family of families)
      expect(
        own.some((n) => n.replace(/_(bucket|sum|count)$/, "") === family && onDashboard.has(n)),
        `${family} is on no panel`,
      ).toBe(true);
  });

  it("reads from the data source variable, which starts on the provisioned Prometheus", () => {
    for (const p of dashboard.panels.filter((p) => p.type !== "row")) {
      expect(p.datasource?.uid, p.title).toBe("${datasource}");
      for (const t of p.targets ?? []) expect(t.datasource?.uid, p.title).toBe("${datasource}");
    }
    const variable = dashboard.templating.list.find((v) => v.type === "datasource");
    const [provisioned] = yamlOf("deploy/grafana/provisioning/datasources/prometheus.yml").datasources as {
      uid: string;
      url: string;
    }[];
    expect(variable?.current?.value).toBe(provisioned!.uid);
    expect(new URL(provisioned!.url).host).toBe("prometheus:9090");
  });
});

describe("compose.yaml's observability profile", () => {
  const compose = yamlOf("compose.yaml") as {
    services: Record<string, { profiles?: string[]; volumes?: string[]; image?: string }>;
  };

  it("adds Prometheus and Grafana only with --profile observability", () => {
    for (const name of ["prometheus", "grafana"])
      expect(compose.services[name]?.profiles, name).toEqual(["observability"]);
    expect(compose.services.app?.profiles).toBeUndefined();
  });

  it("mounts files that exist where the configs look for them", () => {
    const mounts = Object.fromEntries(
      ["prometheus", "grafana"].flatMap((s) =>
        (compose.services[s]!.volumes ?? [])
          .filter((v) => v.startsWith("./"))
          .map((v) => {
            const [from, to] = v.split(":");
            expect(existsSync(at(from!)), `${s}: ${from} exists`).toBe(true);
            return [to!, from!];
          }),
      ),
    );
    // Prometheus reads its rules beside its config.
    expect(mounts["/etc/prometheus/prometheus.yml"]).toBe("./deploy/prometheus/prometheus.yml");
    expect(mounts["/etc/prometheus/alerts.yml"]).toBe("./deploy/prometheus/alerts.yml");
    // Grafana: its provisioning, and the dashboard in the folder the dashboard provider reads.
    expect(mounts["/etc/grafana/provisioning"]).toBe("./deploy/grafana/provisioning");
    const [provider] = yamlOf("deploy/grafana/provisioning/dashboards/checkout.yml").providers as {
      options: { path: string };
    }[];
    expect(mounts[`${provider!.options.path}/checkout.json`]).toBe("./deploy/grafana/checkout.json");
  });
});
