import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";

/**
 * The site's stylesheet (app/globals.css). components/ui/Stylesheet.tsx puts it into each page's
 * HTML as one `<style>`; /stylesheet.css serves it to the one page without the root layout
 * (global-error).
 *
 * Not a CSS import with Next's `inlineCss`: that sends the stylesheet three times in every page,
 * once in the HTML and twice more in the page's RSC data (for the root layout, and for
 * global-error, which Next sends with every page), 11.5 KB each (ADR 12).
 *
 * Server code, though imported by a client component: package.json's `#stylesheet` is this module
 * on the server and ./stylesheet.browser.ts in the browser. Read from the working directory, like
 * the migrations (next.config.mjs traces it into the standalone server): once per process in
 * production, on every call in development, so that an edit shows on reload.
 */
const file = path.join(process.cwd(), "app/globals.css");

/** The minified text, and its content hash as an ETag for /stylesheet.css. */
export interface SiteStylesheet {
  css: string;
  etag: string;
}
let cached: SiteStylesheet | undefined;

export function stylesheet(): SiteStylesheet {
  if (cached) return cached;
  const css = minifyCss(readFileSync(file, "utf8"));
  const read = { css, etag: `"${createHash("sha256").update(css).digest("base64url").slice(0, 22)}"` };
  if (process.env.NODE_ENV === "production") cached = read;
  return read;
}

// A quoted string, escapes included: every step below keeps it exactly as written.
const STRING = String.raw`"(?:\\[\s\S]|[^"\\])*"|'(?:\\[\s\S]|[^'\\])*'`;
const COMMENTS_AND_SPACE = new RegExp(String.raw`(${STRING})|(?:/\*[\s\S]*?\*/|\s)+`, "g");
// Space around braces, semicolons and commas, and after a colon, means nothing in CSS. Space before
// a colon does (`.list :focus-visible` is a descendant), and so does space around `+` (`calc()`).
const NEEDLESS_SPACE = new RegExp(`(${STRING})| ?([{};,]) ?|(:) `, "g");
const LAST_SEMICOLON = new RegExp(`(${STRING})|;(?=})`, "g");

/** Comments out, whitespace down to what the syntax needs, strings untouched. */
export function minifyCss(css: string): string {
  return css
    .replace(COMMENTS_AND_SPACE, (_, string?: string) => string ?? " ")
    .replace(NEEDLESS_SPACE, (_, string?: string, mark?: string, colon?: string) => string ?? mark ?? colon ?? "")
    .replace(LAST_SEMICOLON, (_, string?: string) => string ?? "")
    .trim();
}
