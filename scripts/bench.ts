/**
 * `npm run bench`: the checkout page's speed figures, as a report (it always exits 0).
 *
 * 1. Bank search: the picker's own filter function (components/bank-picker/filter.ts) over 3,000
 *    synthetic banks with diacritics, timed per keystroke while a query is typed letter by letter.
 * 2. First-load JavaScript: the app is started with `npm start` (built first if there is no build),
 *    a checkout is created over the merchant API, and for the checkout page and its landing page
 *    every non-`noModule` `<script src>` is fetched and its gzip size summed (level 9, or the
 *    server's own gzip when it compressed). Next 16 no longer prints these sizes itself.
 *    Then Lighthouse 13 (mobile preset, simulated throttling, Debian's chromium) on both pages:
 *    performance, accessibility and best-practices scores, LCP/TBT/CLS and back/forward cache;
 *    then again with the CPU slowed so that this host emulates the preset's phone
 *    (scripts/lighthouse-cpu.ts), since the preset's 4x assumes a host of a given speed.
 * 3-5. The server: throughput as a ratio to a bare Next route, payment start overhead, database
 *    round trips per route (scripts/bench-server.ts).
 *
 * `npm run bench -- --pages` runs only step 2, `-- --server` only 3-5, `-- --coop` only what
 * Cross-Origin-Opener-Policy costs a page load in the browser (scripts/coop-cost.ts), `-- --browser`
 * step 2 with the pages loaded in Chromium itself instead of by Lighthouse (their blocking time
 * against the bare page's, as a payer reaches them); `-- --json FILE` also writes every figure to
 * FILE as one flat JSON object.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { gzipSync } from "node:zlib";
import { filterBanks, type SearchableBank } from "../components/bank-picker/filter";
import { EMBED_JS } from "../lib/embed/loader-bundle";
import { percentile, portFree, request, root, stopProcessGroup } from "./bench-app";
import { cpuMultiplierFor } from "./lighthouse-cpu";
import { benchServer, type Figures } from "./bench-server";
import { buildApp } from "./build";
import { startFloor, type Floor } from "./bench-floor";
import { coopCost, pagesInBrowser } from "./coop-cost";
import { firstLoadJs as firstLoadJsAt } from "./first-load-js";
import { JS_BUDGET, type BudgetedPage } from "./js-budget";

const firstLoadJs = (pagePath: string) => firstLoadJsAt(APP, pagePath);

// 3200/3201 unless BENCH_PORT is set (the sandbox takes the next port).
const PORT = Number(process.env.BENCH_PORT || 3200);
const SANDBOX_PORT = PORT + 1;
const APP = `http://localhost:${PORT}`;
const FILTER_TARGET_MS = 4;
const LIGHTHOUSE_TARGETS = { performance: 98, accessibility: 100, "best-practices": 100 } as const;
const LIGHTHOUSE_RUNS = 5;

/** Every figure of the run, flat (`--json FILE` writes them). */
const figures: Figures = {};

function line(text = "") {
  process.stdout.write(`${text}\n`);
}

// ---------------------------------------------------------------------------------------------
// 1. Bank search

const FIRST = [
  "Šiaulių",
  "Žemaitijos",
  "Rīgas",
  "Tallinna",
  "Kredīt",
  "Ūkio",
  "Citadele",
  "Swed",
  "Luminor",
  "Lietuvos",
  "Pärnu",
  "Daugavas",
  "Vilniaus",
  "Kauno",
  "Jūrmalas",
  "Tartu",
  "Ģirts",
  "Ķekavas",
  "Narva",
  "Panevėžio",
];
const SECOND = [
  "bankas",
  "banka",
  "pank",
  "kredito unija",
  "krājaisdevu sabiedrība",
  "hoiupank",
  "finance",
  "taupomoji kasa",
  "investīciju banka",
  "ühistu",
];
const SHORT = ["sb", "ku", "kb", "fin", "hp", "tk"];

function syntheticBanks(count: number): (SearchableBank & { popular: boolean })[] {
  const fold = (s: string) => s.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
  return Array.from({ length: count }, (_, i) => {
    const first = FIRST[i % FIRST.length] as string;
    const second = SECOND[Math.floor(i / FIRST.length) % SECOND.length] as string;
    const name = `${first} ${second} ${i + 1}`;
    const officialName = `AB „${name}“`;
    const short = `${SHORT[i % SHORT.length]}${i}`;
    return {
      id: `BANK_${i}`,
      name,
      officialName,
      popular: i < 5,
      searchTerms: [fold(name), fold(officialName), short],
    };
  });
}

function benchFilter() {
  const banks = syntheticBanks(3000);
  const query = "siauliu kredito";
  let t = performance.now();
  filterBanks(banks, "x"); // builds the per-list index, as the first keystroke after loading does
  const indexMs = performance.now() - t;

  const times: number[] = [];
  let lastCount = 0;
  for (let run = 0; run < 40; run += 1) {
    for (let n = 1; n <= query.length; n += 1) {
      const typed = query.slice(0, n);
      t = performance.now();
      lastCount = filterBanks(banks, typed).length;
      times.push(performance.now() - t);
    }
  }
  times.sort((a, b) => a - b);
  const median = percentile(times, 50);
  const p95 = percentile(times, 95);
  line(`bank search over ${banks.length} banks, typing "${query}" (${times.length} keystrokes):`);
  line(
    `  per keystroke: median ${median.toFixed(3)} ms, p95 ${p95.toFixed(3)} ms (target ≤ ${FILTER_TARGET_MS} ms) ${p95 <= FILTER_TARGET_MS ? "OK" : "OVER"}`,
  );
  figures.bank_search_p95_ms = p95;
  line(`  one-time index of the list: ${indexMs.toFixed(2)} ms; "${query}" matches ${lastCount} banks`);
}

// ---------------------------------------------------------------------------------------------
// 2. First-load JavaScript

async function waitForHealth(child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}`);
    try {
      const res = await request(`${APP}/api/health`);
      if (res.status === 200) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error("the app did not become healthy in time");
}

interface LighthouseFigures {
  scores: Record<string, number | undefined>;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  bfcache: string;
  /** Lighthouse's measure of this host's speed (environment.benchmarkIndex). */
  benchmarkIndex: number;
  /** Main-thread time by script (the bootup-time audit: evaluation, parse and compile), ms. */
  byScript: { name: string; ms: number }[];
  /** The long tasks Lighthouse saw, by the script it blames, ms. */
  longTasks: { name: string; ms: number }[];
  /** Main-thread time by kind of work (mainthread-work-breakdown: script evaluation, style & layout...), ms. */
  byKind: { name: string; ms: number }[];
}

type AuditItem = { reason?: string; url?: string; total?: number; duration?: number; groupLabel?: string };

/**
 * A script's name without the host: /_next/static/chunks/x.js, or the page's own document, which
 * Lighthouse blames for parsing it, its inline scripts (the RSC payload) and the style and layout
 * they cause.
 */
function scriptName(url: string | undefined): string {
  if (!url) return "(other)";
  try {
    const { pathname } = new URL(url);
    return pathname.startsWith("/_next/") ? pathname : "page HTML (parsing, inline scripts, style and layout)";
  } catch {
    return url;
  }
}

/** Lighthouse's own CLI with its default (mobile, simulated throttling) settings, on Debian's chromium. */
async function lighthouse(url: string, cpuMultiplier?: number): Promise<LighthouseFigures> {
  // Lighthouse now and then loses the trace of a load (NO_NAVSTART) and says to run it again.
  for (let attempt = 1; ; attempt++) {
    try {
      return lighthouseOnce(url, cpuMultiplier);
    } catch (err) {
      if (attempt >= 3) throw err;
    }
  }
}

function lighthouseOnce(url: string, cpuMultiplier?: number): LighthouseFigures {
  const bin = path.join(root, "node_modules/.bin/lighthouse");
  const r = spawnSync(
    bin,
    [
      url,
      "--output=json",
      "--quiet",
      "--only-categories=performance,accessibility,best-practices",
      "--chrome-flags=--headless=new --no-sandbox --disable-gpu",
      ...(cpuMultiplier ? [`--throttling.cpuSlowdownMultiplier=${cpuMultiplier.toFixed(2)}`] : []),
    ],
    {
      env: { ...process.env, CHROME_PATH: process.env.CHROME_PATH ?? "/usr/bin/chromium" },
      maxBuffer: 64 * 1024 * 1024,
      encoding: "utf8",
    },
  );
  if (r.status !== 0) throw new Error(`lighthouse failed: ${r.stderr.slice(-500)}`);
  const report = JSON.parse(r.stdout) as {
    environment?: { benchmarkIndex?: number };
    categories: Record<string, { score: number | null }>;
    audits: Record<string, { numericValue?: number; score: number | null; details?: { items?: AuditItem[] } }>;
  };
  const scores = Object.fromEntries(
    Object.entries(report.categories).map(([k, c]) => [k, c.score === null ? undefined : Math.round(c.score * 100)]),
  );
  const bf = report.audits["bf-cache"];
  const bfReasons = (bf?.details?.items ?? []).map((i) => i.reason).filter(Boolean);
  return {
    scores,
    lcpMs: report.audits["largest-contentful-paint"]?.numericValue ?? NaN,
    tbtMs: report.audits["total-blocking-time"]?.numericValue ?? NaN,
    cls: report.audits["cumulative-layout-shift"]?.numericValue ?? NaN,
    bfcache: bf ? (bf.score === 1 ? "eligible" : `not eligible (${bfReasons.join("; ")})`) : "not audited",
    benchmarkIndex: report.environment?.benchmarkIndex ?? NaN,
    byScript: (report.audits["bootup-time"]?.details?.items ?? []).map((i) => ({
      name: scriptName(i.url),
      ms: i.total ?? 0,
    })),
    longTasks: (report.audits["long-tasks"]?.details?.items ?? []).map((i) => ({
      name: scriptName(i.url),
      ms: i.duration ?? 0,
    })),
    byKind: (report.audits["mainthread-work-breakdown"]?.details?.items ?? []).map((i) => ({
      name: i.groupLabel ?? "(other)",
      ms: i.duration ?? 0,
    })),
  };
}

/** "120 ms x.js, 80 ms y.js": the largest first, the same name's entries summed. */
function largestFirst(rows: { name: string; ms: number }[], top = 6): string {
  const sums = new Map<string, number>();
  for (const r of rows) sums.set(r.name, (sums.get(r.name) ?? 0) + r.ms);
  const sorted = [...sums].sort((a, b) => b[1] - a[1]);
  return sorted.length
    ? sorted
        .slice(0, top)
        .map(([name, ms]) => `${ms.toFixed(0)} ms ${name}`)
        .join(", ")
    : "none";
}

/**
 * The payer's pages against the bare page, in one run: within 3 points, TBT at most 1.5x (issue
 * 52). Also against the bare page with our headers: the floor any page that keeps them stands on,
 * since Lighthouse's simulation charges COOP's process swap as blocking time (ADR 26).
 */
function againstFloors(
  how: string,
  prefix: string,
  of: (key: string) => { tbtMs: number; performance?: number },
  suffix = "",
) {
  for (const floorKey of ["framework", "framework_headers"]) {
    const floorPage = of(floorKey);
    for (const key of ["checkout", "landing"]) {
      const page = of(key);
      const ratio = page.tbtMs / Math.max(floorPage.tbtMs, 1);
      figures[`${prefix}${key}${suffix}_tbt_ratio_to_${floorKey}`] = ratio;
      let points = "";
      if (page.performance !== undefined && floorPage.performance !== undefined) {
        const behind = floorPage.performance - page.performance;
        figures[`${prefix}${key}${suffix}_points_behind_${floorKey}`] = behind;
        points = `${behind} points behind (goal ≤ 3) ${behind <= 3 ? "OK" : "OVER"}, `;
      }
      line(
        `${how}${key} against the bare page${floorKey === "framework" ? "" : " with our headers"}: ${points}TBT ${ratio.toFixed(2)}x (goal ≤ 1.5x) ${ratio <= 1.5 ? "OK" : "OVER"}`,
      );
    }
  }
}

/** Step 2; `inBrowser` measures the pages in Chromium itself (coop-cost.ts) instead of by Lighthouse. */
async function benchFirstLoad(inBrowser = false) {
  const env = {
    ...process.env,
    NEXT_TELEMETRY_DISABLED: "1",
    PORT: String(PORT),
    SANDBOX_PORT: String(SANDBOX_PORT),
    APP_URL: APP,
    PGLITE_DIR: ".data/bench",
    PIS_BASE_URL: "",
    DATABASE_URL: "",
  };
  if (!existsSync(path.join(root, ".next/BUILD_ID"))) {
    line("no build found: running npm run build...");
    if (buildApp(env) !== 0) {
      line("the build failed: first-load JS not measured");
      return;
    }
  }

  for (const port of [PORT, SANDBOX_PORT]) {
    if (!(await portFree(port))) {
      line(`port ${port} is in use: first-load JS not measured (set BENCH_PORT to use other ports)`);
      return;
    }
  }
  line(`starting the app on ${APP} (sandbox on ${SANDBOX_PORT})...`);
  const child = spawn("npm", ["start"], { cwd: root, env, detached: true, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr?.on("data", (c: Buffer) => {
    stderr = (stderr + c.toString()).slice(-4000);
  });
  let floor: Floor | undefined;
  try {
    await waitForHealth(child, 240_000);
    const created = await request(`${APP}/api/checkouts`, {
      method: "POST",
      headers: { Authorization: "Bearer dev-merchant-key", "Content-Type": "application/json" },
      body: JSON.stringify({
        amount: "12.50",
        currency: "EUR",
        description: "Bench",
        reference: "bench-1",
        returnUrl: `${APP}/`,
      }),
    });
    if (created.status !== 200)
      throw new Error(`creating a checkout answered ${created.status}: ${created.body.toString()}`);
    const { id } = JSON.parse(created.body.toString()) as { id: string };

    // The payer's pages against their limits in scripts/js-budget.ts (npm test enforces them); the
    // bank picker embedded in a merchant's page (embed.js) has the checkout page's.
    for (const page of Object.keys(JS_BUDGET) as BudgetedPage[]) {
      const { kib, scripts, inlineKib } = await firstLoadJs(JS_BUDGET[page].path(id));
      const { limitKib } = JS_BUDGET[page];
      figures[`${page}_first_load_kib`] = kib;
      line(
        `${page} first-load JS: ${kib.toFixed(1)} KiB gzip (limit ≤ ${limitKib} KiB) ${kib <= limitKib ? "OK" : "OVER"} — ${scripts} scripts; inline RSC data ${inlineKib.toFixed(1)} KiB gzip`,
      );
    }
    const loaderKib = gzipSync(EMBED_JS).length / 1024;
    line(`embed.js: ${loaderKib.toFixed(1)} KiB gzip (target ≤ 4 KiB)`);
    figures.embed_js_kib = loaderKib;
    // Beside the payer pages, three floors: our simplest page (the accessibility statement: our
    // layout, stylesheet and language, none of the payer's client code); a bare Next page
    // (scripts/bench-fixture) that no page built on this framework can score above on this host;
    // and the same bare page with the security headers every page of ours must send (ADR 10).
    floor = await startFloor(PORT + 20);
    const pages = [
      ["checkout", "checkout", `${APP}/checkout/${id}?lang=en`],
      ["landing", "landing", `${APP}/checkout/${id}/return?lang=en`],
      ["simplest page of ours (the accessibility statement)", "simplest", `${APP}/accessibility?lang=en`],
      ["framework (a bare Next page, scripts/bench-fixture)", "framework", floor.pageUrl],
      ["framework with our pages' security headers (the same bare page)", "framework_headers", floor.securedPageUrl],
    ] as const;
    // A freshly started server compiles its code on the first requests: warm it before measuring.
    for (let i = 0; i < 5; i++) for (const [, , url] of pages) await request(url);
    if (inBrowser) {
      const medians = await pagesInBrowser(
        pages.map(([, key, url]) => [key, url] as const),
        floor,
        line,
      );
      for (const [key, m] of medians) {
        figures[`browser_${key}_tbt_ms`] = m.tbtMs;
        figures[`browser_${key}_load_ms`] = m.loadMs;
      }
      againstFloors("in the browser, ", "browser_", (key) => medians.get(key)!);
      return;
    }
    const medianOf = (runs: LighthouseFigures[]) =>
      runs.slice().sort((a, b) => (a.scores.performance ?? 0) - (b.scores.performance ?? 0))[
        Math.floor(runs.length / 2)
      ]!;
    const report = (name: string, runs: LighthouseFigures[], key: string, how: string) => {
      const lh = medianOf(runs);
      const scores = Object.entries(LIGHTHOUSE_TARGETS).map(
        ([k, target]) => `${k} ${lh.scores[k]} (≥ ${target}) ${(lh.scores[k] ?? 0) >= target ? "OK" : "LOW"}`,
      );
      for (const [k, v] of Object.entries(lh.scores)) figures[`lighthouse_${key}_${k.replace("-", "_")}`] = v ?? 0;
      figures[`lighthouse_${key}_lcp_ms`] = lh.lcpMs;
      figures[`lighthouse_${key}_tbt_ms`] = lh.tbtMs;
      const perf = runs.map((r) => r.scores.performance ?? 0).join(", ");
      line(`lighthouse ${name}, ${how}, median of ${runs.length} runs (performance ${perf}): ${scores.join(", ")}`);
      line(
        `  LCP ${lh.lcpMs.toFixed(0)} ms, TBT ${lh.tbtMs.toFixed(0)} ms, CLS ${lh.cls.toFixed(3)}, back/forward cache ${lh.bfcache}`,
      );
      // Where the time goes (issue 52): the main thread by script, and the long tasks by script.
      line(`  main thread by script: ${largestFirst(lh.byScript)}`);
      line(`  long tasks by script: ${largestFirst(lh.longTasks)}`);
      line(`  main thread by kind of work: ${largestFirst(lh.byKind, 8)}`);
      return lh;
    };
    // Lighthouse's own advice on variance: several runs, judge the median (a shared machine's
    // neighbours move one run by a few points either way). All runs are printed.
    const measure = async (cpuMultiplier?: number) => {
      const how = cpuMultiplier
        ? `the preset's phone on this host (CPU ${cpuMultiplier.toFixed(2)}x)`
        : "mobile preset (CPU 4x)";
      const suffix = cpuMultiplier ? "_calibrated" : "";
      const all: LighthouseFigures[] = [];
      const medians: Record<string, LighthouseFigures> = {};
      for (const [name, key, url] of pages) {
        const runs: LighthouseFigures[] = [];
        for (let i = 0; i < LIGHTHOUSE_RUNS; i++) runs.push(await lighthouse(url, cpuMultiplier));
        medians[key] = report(name, runs, `${key}${suffix}`, how);
        all.push(...runs);
      }
      againstFloors(
        "",
        "lighthouse_",
        (key) => {
          const m = medians[key]!;
          return { tbtMs: m.tbtMs, performance: m.scores.performance ?? 0 };
        },
        suffix,
      );
      return all;
    };
    const presetRuns = await measure();
    // The same phone emulated on this host (scripts/lighthouse-cpu.ts): what the preset's scores
    // would be on the kind of host it was tuned on.
    const indexes = presetRuns.map((r) => r.benchmarkIndex).filter(Number.isFinite);
    const benchmarkIndex = indexes.length
      ? percentile(
          indexes.sort((a, b) => a - b),
          50,
        )
      : NaN;
    const multiplier = cpuMultiplierFor(benchmarkIndex);
    figures.lighthouse_benchmark_index = benchmarkIndex;
    figures.lighthouse_cpu_multiplier = multiplier;
    line(
      `this host's Lighthouse benchmarkIndex ${benchmarkIndex.toFixed(0)} (the preset's 4x was tuned on about 1,500): the same phone is CPU ${multiplier.toFixed(2)}x here`,
    );
    await measure(multiplier);
  } catch (err) {
    line(`first-load JS not measured: ${err instanceof Error ? err.message : String(err)}`);
    if (stderr.trim()) line(stderr.trim());
  } finally {
    await floor?.stop();
    await stopProcessGroup(child);
  }
}

async function main() {
  line("== bench ==");
  if (process.argv.includes("--coop")) return coopCost(PORT + 20, line);
  if (process.argv.includes("--browser")) return benchFirstLoad(true);
  const only = process.argv.includes("--pages") ? "pages" : process.argv.includes("--server") ? "server" : null;
  if (only === null) {
    benchFilter();
    line();
  }
  if (only !== "server") await benchFirstLoad();
  if (only === null) line();
  if (only !== "pages") await benchServer(PORT + 10, line, figures);
  const jsonAt = process.argv.indexOf("--json");
  if (jsonAt > 0 && process.argv[jsonAt + 1]) {
    writeFileSync(process.argv[jsonAt + 1]!, `${JSON.stringify(figures, null, 2)}\n`);
    line(`figures written to ${process.argv[jsonAt + 1]}`);
  }
}

main()
  .catch((err: unknown) => line(`bench failed: ${err instanceof Error ? err.message : String(err)}`))
  .finally(() => process.exit(0));
