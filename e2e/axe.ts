import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";
import type { AxeResults, RunOptions } from "axe-core";

const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

export interface AxeCheckOptions {
  /** Only check inside this selector. */
  include?: string;
  /** Leave these selectors out (e.g. third-party widgets). */
  exclude?: string[];
  /** Rule ids to skip; say why next to the call. */
  disableRules?: string[];
}

/**
 * Runs axe-core (WCAG 2.0/2.1 A and AA rules) on the page as it is now and fails the test with
 * one line per violating element: rule id, impact, target selector and what the rule asks for.
 */
export async function expectNoAxeViolations(page: Page, options: AxeCheckOptions = {}): Promise<void> {
  // After a client-side navigation (a server action's redirect) Next puts the new <title> in a
  // moment after the body: check the page once it is there. A page without one still fails below.
  await page.waitForFunction(() => document.title.trim() !== "", null, { timeout: 5_000 }).catch(() => undefined);
  const { violations } = page.frames().length > 1 ? await withFrames(page, options) : await inPage(page, options);
  const found = violations.flatMap((v) =>
    v.nodes.map((node) => {
      const target = node.target.map((t) => (Array.isArray(t) ? t.join(" >>> ") : String(t))).join(" , ");
      return `${v.id} (${v.impact ?? node.impact ?? "unknown"}) at ${target}: ${v.help}`;
    }),
  );
  expect(found, `axe found ${found.length} accessibility violation(s) on ${page.url()}`).toEqual([]);
}

/**
 * A page without frames: axe is put into the document once and run there, asked for violations
 * only. @axe-core/playwright injects axe again on every call and finishes each run in a page of
 * its own: 3-4 s a check against under 1 s here, with 115 checks in the e2e run (CI's time).
 */
async function inPage(page: Page, options: AxeCheckOptions): Promise<Pick<AxeResults, "violations">> {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(AXE_SOURCE);
  const runOptions: RunOptions = {
    runOnly: { type: "tag", values: WCAG_TAGS },
    resultTypes: ["violations"],
    rules: Object.fromEntries((options.disableRules ?? []).map((id) => [id, { enabled: false }])),
  };
  // Without `include`, axe checks the whole document.
  const context = { exclude: options.exclude ?? [], ...(options.include ? { include: [options.include] } : {}) };
  return page.evaluate(
    async ({ context, runOptions }) => {
      const { axe } = window as unknown as { axe: typeof import("axe-core") };
      return { violations: (await axe.run(context, runOptions)).violations };
    },
    { context, runOptions },
  );
}

/** A page with frames (the embedded picker): @axe-core/playwright checks inside each of them. */
async function withFrames(page: Page, options: AxeCheckOptions): Promise<Pick<AxeResults, "violations">> {
  let builder = new AxeBuilder({ page }).withTags(WCAG_TAGS);
  if (options.include) builder = builder.include(options.include);
  for (const selector of options.exclude ?? []) builder = builder.exclude(selector);
  if (options.disableRules?.length) builder = builder.disableRules(options.disableRules);
  return builder.analyze();
}
