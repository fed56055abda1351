/**
 * `npm run bench -- --coop`: what our page headers, Cross-Origin-Opener-Policy above all, cost a
 * page load, measured in the browser itself rather than by Lighthouse (issue 52, item 3; ADR 26).
 *
 * The bare Next page (scripts/bench-fixture) is loaded bare, with all our page headers, with COOP
 * alone and with all but COOP, on Debian's Chromium with the CPU slowed 4x as Lighthouse's mobile
 * preset does, in three ways a browser reaches it:
 * - from about:blank, the way Lighthouse starts every run;
 * - by a link from a page of another site (127.0.0.1 against localhost), the way a payer arrives
 *   from the merchant's shop, with desktop Chrome's site isolation;
 * - the same with the site isolation of Chrome on Android, which gives only some sites a process.
 * For each load: the main thread's long tasks (the Long Tasks API, buffered) added up as Total
 * Blocking Time (each task's time over 50 ms, from the first paint to 4 s), and the time to the
 * load event. The median of RUNS loads, each in a fresh browser context, interleaved, is printed.
 */
import { chromium, type Browser } from "@playwright/test";
import { percentile } from "./bench-app";
import { startFloor, type Floor } from "./bench-floor";

const RUNS = Number(process.env.COOP_RUNS || 9);
const CPU_SLOWDOWN = 4;
/** How long after the load event the page's long tasks are gathered: TBT counts them up to this. */
const SETTLE_MS = 4000;

interface Load {
  tbtMs: number;
  loadMs: number;
}

async function load(browser: Browser, url: string, from: string | null): Promise<Load> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.addInitScript(() => {
    const w = window as unknown as { __tasks: { start: number; duration: number }[] };
    w.__tasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__tasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: "longtask", buffered: true });
  });
  const cdp = await context.newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: CPU_SLOWDOWN });
  if (from) {
    // The payer follows a link of the shop's: a navigation the page starts, not the address bar's.
    await page.goto(from);
    await Promise.all([page.waitForURL(url, { waitUntil: "load" }), page.evaluate((to) => location.assign(to), url)]);
  } else await page.goto(url, { waitUntil: "load" });
  // The long tasks of the load are read once it has settled.
  await page.waitForTimeout(SETTLE_MS);
  const { tasks, fcp, loadMs } = await page.evaluate(() => {
    const paint = performance.getEntriesByName("first-contentful-paint")[0];
    const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
    return {
      tasks: (window as unknown as { __tasks: { start: number; duration: number }[] }).__tasks,
      fcp: paint?.startTime ?? 0,
      loadMs: nav?.loadEventEnd ?? 0,
    };
  });
  await context.close();
  const tbtMs = tasks
    .filter((t) => t.start + t.duration > fcp && t.start < SETTLE_MS)
    .reduce((sum, t) => sum + Math.max(0, t.duration - 50), 0);
  return { tbtMs, loadMs };
}

const launch = (extra: string[] = []) =>
  chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking", ...extra],
  });

// Desktop Chrome gives every site a process of its own; Chrome on Android only some sites (those
// a user signs in to, or that send COOP), so there a navigation between two other sites can stay
// in the renderer it is in. `--disable-site-isolation-trials` is that phone.
const PHONE_ISOLATION = ["--disable-site-isolation-trials"];

const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );

/** The floor's page under 127.0.0.1: the same server, but not the site localhost is. */
const otherSiteOf = (floor: Floor) => floor.pageUrl.replace("localhost", "127.0.0.1");

interface Measured {
  tbtMs: number;
  loadMs: number;
  /** Every load's TBT, in the order run. */
  tbts: number[];
}

/**
 * Each load of `plan` RUNS times, interleaved (one of each in turn, so that the host's own ups and
 * downs fall on all alike); the medians by key.
 */
async function medianLoads(
  plan: readonly { key: string; browser: Browser; url: string; from: string | null }[],
): Promise<Map<string, Measured>> {
  const loads = new Map<string, Load[]>();
  for (let i = 0; i < RUNS; i++)
    for (const { key, browser, url, from } of plan)
      loads.set(key, [...(loads.get(key) ?? []), await load(browser, url, from)]);
  return new Map(
    [...loads].map(([key, of]) => [
      key,
      {
        tbtMs: median(of.map((l) => l.tbtMs)),
        loadMs: median(of.map((l) => l.loadMs)),
        tbts: of.map((l) => l.tbtMs),
      },
    ]),
  );
}

/**
 * `npm run bench -- --browser`: the payer's pages against the bare page in the browser, as a
 * payer reaches them (a link from the shop's site, a phone's site isolation), the medians of RUNS
 * interleaved loads; the ratios the issue sets for Lighthouse (TBT at most 1.5x the bare page's),
 * here without Lighthouse's simulation (ADR 26).
 */
export async function pagesInBrowser(
  pages: readonly (readonly [name: string, url: string])[],
  floor: Floor,
  line: (text: string) => void,
): Promise<Map<string, Measured>> {
  const phoneLike = await launch(PHONE_ISOLATION);
  try {
    const from = otherSiteOf(floor);
    const medians = await medianLoads(pages.map(([key, url]) => ({ key, browser: phoneLike, url, from })));
    for (const [name, m] of medians)
      line(
        `in the browser, ${name}: TBT ${m.tbtMs.toFixed(0)} ms (${m.tbts.map((t) => t.toFixed(0)).join(", ")}), load event ${m.loadMs.toFixed(0)} ms (median of ${RUNS}, CPU ${CPU_SLOWDOWN}x, by a link from another site, a phone's site isolation)`,
      );
    return medians;
  } finally {
    await phoneLike.close();
  }
}

export async function coopCost(port: number, line: (text: string) => void): Promise<void> {
  const floor = await startFloor(port);
  const desktop = await launch();
  const phoneLike = await launch(PHONE_ISOLATION);
  try {
    const otherSite = otherSiteOf(floor);
    const arrivals = [
      ["from about:blank (as Lighthouse)", desktop, null],
      ["from another site, desktop site isolation", desktop, otherSite],
      ["from another site, a phone's site isolation", phoneLike, otherSite],
    ] as const;
    const pages = [
      ["bare page", floor.pageUrl],
      ["with our headers", floor.securedPageUrl],
      ["with COOP alone", `${floor.pageUrl}secured-coop`],
      ["with our headers but COOP", `${floor.pageUrl}secured-others`],
    ] as const;
    const medians = await medianLoads(
      arrivals.flatMap(([how, browser, from]) =>
        pages.map(([what, url]) => ({ key: `${how}, ${what}`, browser, url, from })),
      ),
    );
    for (const [key, m] of medians)
      line(
        `COOP ${key}: TBT ${m.tbtMs.toFixed(0)} ms, load event ${m.loadMs.toFixed(0)} ms (median of ${RUNS}, CPU ${CPU_SLOWDOWN}x)`,
      );
  } finally {
    await desktop.close();
    await phoneLike.close();
    await floor.stop();
  }
}
