import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

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
  let builder = new AxeBuilder({ page }).withTags(WCAG_TAGS);
  if (options.include) builder = builder.include(options.include);
  for (const selector of options.exclude ?? []) builder = builder.exclude(selector);
  if (options.disableRules?.length) builder = builder.disableRules(options.disableRules);

  const { violations } = await builder.analyze();
  const found = violations.flatMap((v) =>
    v.nodes.map((node) => {
      const target = node.target.map((t) => (Array.isArray(t) ? t.join(" >>> ") : String(t))).join(" , ");
      return `${v.id} (${v.impact ?? node.impact ?? "unknown"}) at ${target}: ${v.help}`;
    }),
  );
  expect(found, `axe found ${found.length} accessibility violation(s) on ${page.url()}`).toEqual([]);
}
