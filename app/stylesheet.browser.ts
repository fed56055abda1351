import type { SiteStylesheet } from "./stylesheet";

/**
 * What `#stylesheet` (package.json "imports") is in the browser: nothing. The stylesheet came in
 * the page's HTML, and React keeps the `<style>` it finds there (a resource, by its href) without
 * reading this text; so the text is neither in the page's scripts nor in its RSC data
 * (components/ui/Stylesheet.tsx).
 */
export function stylesheet(): SiteStylesheet {
  return { css: "", etag: "" };
}
