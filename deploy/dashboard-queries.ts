import { readFileSync } from "node:fs";
import path from "node:path";

/**
 * The dashboard's queries as Grafana sends them (deploy/grafana/checkout.json), read by its test
 * (observability.test.ts, promtool) and by the soak (against a Prometheus scraping the instances).
 */
export interface PanelQuery {
  panel: string;
  expr: string;
  /** The panel counts failures: no series means none happened, and it says 0 (`noValue`). */
  zeroWhenEmpty: boolean;
}

interface Panel {
  title: string;
  targets?: { expr: string }[];
  fieldConfig?: { defaults: { noValue?: string } };
}

export function panelQueries(root: string): PanelQuery[] {
  const dashboard = JSON.parse(readFileSync(path.join(root, "deploy/grafana/checkout.json"), "utf8")) as {
    panels: Panel[];
  };
  return dashboard.panels.flatMap((p) =>
    (p.targets ?? []).map((t) => ({
      panel: p.title,
      expr: t.expr,
      zeroWhenEmpty: p.fieldConfig?.defaults.noValue === "0",
    })),
  );
}

/** A query with Grafana's variables filled in: every job and instance, the given windows. */
export function filled(expr: string, o: { range: string; rateInterval: string }): string {
  return expr
    .replaceAll("$__rate_interval", o.rateInterval)
    .replaceAll("$__range", o.range)
    .replaceAll("$job", "checkout")
    .replaceAll("$instance", ".*");
}
