import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { filled, panelQueries } from "../../deploy/dashboard-queries";
import type { Check } from "./checks";
import { root, spawnGroup, waitHealthy } from "./rig";

/**
 * Debian's Prometheus (the package that brings promtool, scripts/ensure-package.sh) scraping the
 * soak's instances every 5 s and evaluating deploy/prometheus/alerts.yml, so that the run ends by
 * asking it what an operator's dashboard and alerts would have shown (issue 55, item 3; ADR 36).
 */
export interface Prometheus {
  /** Each dashboard panel's queries at `at` (during the traffic), and the alerts fired from `from` to now. */
  checks(o: { from: number; at: number }): Promise<Check[]>;
}

const MISSING =
  "prometheus is missing: run `bash scripts/ensure-package.sh prometheus prometheus prometheus` (Debian's package; npm test does it)";
const SCRAPE_S = 5;

/** One series of an instant query's answer. */
type Series = { metric: Record<string, string>; value: [number, string] };

export async function startPrometheus(port: number, targets: number[]): Promise<Prometheus | string> {
  const dir = mkdtempSync(path.join(tmpdir(), "soak-prometheus-"));
  // Its data is the run's only: gone with the run (the soak kills its children on the way out).
  process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
  copyFileSync(path.join(root, "deploy/prometheus/alerts.yml"), path.join(dir, "alerts.yml"));
  // As deploy/prometheus/prometheus.yml, with this machine's instances (which answer it without
  // the token) and a shorter interval for a run of minutes.
  const config = {
    global: { scrape_interval: `${SCRAPE_S}s`, evaluation_interval: `${SCRAPE_S}s` },
    rule_files: ["alerts.yml"],
    scrape_configs: [
      {
        job_name: "checkout",
        metrics_path: "/api/metrics",
        scrape_timeout: `${SCRAPE_S - 1}s`,
        static_configs: [{ targets: targets.map((p) => `localhost:${p}`) }],
      },
    ],
  };
  writeFileSync(path.join(dir, "prometheus.yml"), JSON.stringify(config));
  const url = `http://127.0.0.1:${port}`;
  const child = spawnGroup(
    [
      `--config.file=${path.join(dir, "prometheus.yml")}`,
      `--storage.tsdb.path=${path.join(dir, "data")}`,
      `--web.listen-address=127.0.0.1:${port}`,
    ],
    process.env,
    "prometheus",
    { command: "prometheus" },
  );
  const missing = new Promise<string>((resolve) =>
    child.on("error", (err: NodeJS.ErrnoException) => resolve(err.code === "ENOENT" ? MISSING : err.message)),
  );
  const ready = waitHealthy(`${url}/-/ready`, 30_000).then(
    () => null,
    (err: Error) => `prometheus did not start: ${err.message}`,
  );
  const failed = await Promise.race([missing, ready]);
  if (failed) return failed;

  async function query(expr: string, at: number): Promise<Series[]> {
    const q = new URLSearchParams({ query: expr, time: String(at / 1000) });
    const res = await fetch(`${url}/api/v1/query?${q}`, { signal: AbortSignal.timeout(10_000) });
    const body = (await res.json()) as {
      status: string;
      error?: string;
      data?: { result: Series[] };
    };
    if (body.status !== "success") throw new Error(`${expr}: ${body.error ?? res.status}`);
    return body.data!.result;
  }

  return {
    async checks({ from, at }) {
      const seconds = Math.max(60, Math.round((at - from) / 1000));
      const range = `${seconds}s`;
      // Grafana's $__rate_interval: four scrapes at least.
      const rateInterval = `${4 * SCRAPE_S}s`;
      const empty: string[] = [];
      let failuresNone = 0;
      const queries = panelQueries(root);
      for (const q of queries) {
        const answer = await query(filled(q.expr, { range, rateInterval }), at).catch((err: Error) => err);
        if (answer instanceof Error) {
          empty.push(`${q.panel}: ${answer.message}`);
          continue;
        }
        if (answer.some((r) => Number.isFinite(Number(r.value[1])))) continue;
        if (q.zeroWhenEmpty) failuresNone++;
        else empty.push(`${q.panel}: no series with a value`);
      }
      const now = Date.now();
      const fired = await query(`max_over_time(ALERTS{alertstate="firing"}[${Math.ceil((now - from) / 1000)}s])`, now);
      const alerts = fired.map((r) => r.metric.alertname);
      return [
        {
          name: "the dashboard's panels read data from a Prometheus scraping the instances",
          ok: empty.length === 0,
          value: `${queries.length - empty.length - failuresNone} of ${queries.length} queries with values; ${failuresNone} failure counts empty (none happened: the panel says 0)`,
          ...(empty.length > 0 && { detail: empty }),
        },
        {
          name: "no alert of alerts.yml fired (Prometheus evaluating them every 5 s)",
          ok: alerts.length === 0,
          value: alerts.length === 0 ? "none" : [...new Set(alerts)].join(", "),
        },
      ];
    },
  };
}
