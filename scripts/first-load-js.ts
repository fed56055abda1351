/**
 * First-load JavaScript of a page as a payer's browser gets it: every script the page's HTML loads
 * (a `<script src>` that is not `noModule`, or one preloaded with `<link>`), each counted at its
 * gzip size (the server's own when it compressed, else level 9), summed. Shared by the bench
 * (`npm run bench -- --pages`) and the budget that `npm test` enforces (e2e/js-budget.spec.ts).
 * Next 16 no longer prints these sizes itself.
 */
import { gunzipSync, gzipSync } from "node:zlib";
import { request } from "./bench-app";

export interface FirstLoad {
  kib: number;
  scripts: number;
  /** The inline RSC payload and other inline scripts, gzip. */
  inlineKib: number;
  /** Each script's gzip KiB, by its path: where a growth came from. */
  bySource: Record<string, number>;
}

/** Every script the page loads: `<script src>` that is not `noModule`, and scripts preloaded with `<link>`. */
function scriptSources(html: string): string[] {
  const sources: string[] = [];
  for (const match of html.matchAll(/<script\b([^>]*)>/gi)) {
    const attrs = match[1] ?? "";
    if (/\bnomodule\b/i.test(attrs)) continue;
    const src = /\bsrc\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(attrs);
    const value = src?.[1] ?? src?.[2] ?? src?.[3];
    if (value) sources.push(value.replace(/&amp;/g, "&"));
  }
  // Chunks the page asks for ahead with <link rel="preload" as="script"> are loaded too.
  for (const match of html.matchAll(/<link\b([^>]*)>/gi)) {
    const attrs = match[1] ?? "";
    if (!/\brel\s*=\s*["']?(?:preload|modulepreload)\b/i.test(attrs)) continue;
    if (/\brel\s*=\s*["']?preload\b/i.test(attrs) && !/\bas\s*=\s*["']?script\b/i.test(attrs)) continue;
    const href = /\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(attrs);
    const value = href?.[1] ?? href?.[2] ?? href?.[3];
    if (value) sources.push(value.replace(/&amp;/g, "&"));
  }
  return [...new Set(sources)];
}

async function gzipSize(url: string): Promise<number> {
  const res = await request(url, { headers: { "Accept-Encoding": "gzip" } });
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
  return res.headers["content-encoding"] === "gzip" ? res.body.length : gzipSync(res.body, { level: 9 }).length;
}

export async function firstLoadJs(app: string, pagePath: string): Promise<FirstLoad> {
  const page = await request(`${app}${pagePath}`, { headers: { "Accept-Language": "en" } });
  if (page.status !== 200) throw new Error(`${pagePath} answered ${page.status}`);
  const html =
    page.headers["content-encoding"] === "gzip" ? gunzipSync(page.body).toString("utf8") : page.body.toString("utf8");
  const sources = scriptSources(html);
  let total = 0;
  const bySource: Record<string, number> = {};
  for (const src of sources) {
    const size = await gzipSize(new URL(src, app).href);
    bySource[src] = size / 1024;
    total += size;
  }
  const inline = [...html.matchAll(/<script\b(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi)]
    .map((m) => m[1] ?? "")
    .join("");
  return {
    kib: total / 1024,
    scripts: sources.length,
    inlineKib: gzipSync(inline, { level: 9 }).length / 1024,
    bySource,
  };
}
