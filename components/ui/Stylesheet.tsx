"use client";

import { stylesheet } from "#stylesheet";

/**
 * The site's stylesheet as one `<style>` in the head (app/stylesheet.ts), from a client component
 * so that only the server's HTML carries its text. A server component's `<style>` would be sent
 * again in the page's RSC data; this component has no props, so the RSC data holds only a
 * reference to it. In the browser `#stylesheet` is empty, and React, which finds the `<style>`
 * by its href, leaves the server's text in place.
 *
 * A resource (href and precedence): React puts it ahead of the pages' CSS modules, which build on
 * it (theirs is Next's "next", met later in the render).
 */
export function Stylesheet() {
  return (
    <style href="site" precedence="site">
      {stylesheet().css}
    </style>
  );
}
