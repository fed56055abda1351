import { readFileSync } from "node:fs";
import type { APIRequestContext, APIResponse } from "@playwright/test";

/**
 * Server actions called over HTTP as a browser's page calls them (a "fetch action"): the
 * `Next-Action` header names the action, the body is React's reply encoding of its arguments
 * (field "0" the arguments, `$K<n>` a FormData whose fields are sent as `_<n>_<name>`). For tests
 * that act as someone forging a post from outside the page that shows its button.
 * (Encoded by hand: React's encodeReply would do it, but only Next's compiled copy of it is here.)
 */

interface ManifestEntry {
  workers: Record<string, unknown>;
  filename: string;
  exportedName: string;
}

function manifest(): Record<string, ManifestEntry> {
  const file = new URL("../.next/server/server-reference-manifest.json", import.meta.url);
  return (JSON.parse(readFileSync(file, "utf8")) as { node: Record<string, ManifestEntry> }).node;
}

/** Every server action of the build: its id, file, name and a page that serves it. */
export function serverActions(): { id: string; file: string; name: string; page: string }[] {
  return Object.entries(manifest()).map(([id, entry]) => {
    const worker = Object.keys(entry.workers).sort((a, b) => a.length - b.length)[0]!;
    const page = worker
      .replace(/^app/, "")
      .replace(/\/page$/, "")
      .replace(/\/\([^)]+\)/g, "")
      .replace(/\[[^\]]+\]/g, "x");
    return { id, file: entry.filename, name: entry.exportedName, page: page || "/" };
  });
}

export function serverAction(file: string, name: string) {
  const found = serverActions().find((a) => a.file === file && a.name === name);
  if (!found) throw new Error(`no server action ${name} in ${file}`);
  return found;
}

/** Calls `action(previousState, form)` the way the page's code does; the answer is React's stream. */
export function callAction(
  request: APIRequestContext,
  action: { id: string; page: string },
  form: Record<string, string>,
  origin: string,
): Promise<APIResponse> {
  // The form's fields before the arguments that refer to them, as React sends them: Next decodes the
  // body as it streams, and a "$K1" read before its fields gets an empty form. (A FormData keeps
  // this order; an object would put the key "0" first.)
  const multipart = new FormData();
  for (const [k, v] of Object.entries(form)) multipart.append(`_1_${k}`, v);
  multipart.append("0", '[null,"$K1"]');
  return request.post(action.page, {
    headers: { "Next-Action": action.id, Accept: "text/x-component", Origin: origin },
    multipart,
    maxRedirects: 0,
  });
}
