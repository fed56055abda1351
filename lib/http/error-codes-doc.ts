/**
 * README's "Error codes" tables, made from the OpenAPI document the app serves: a merchant on a
 * hosted instance has the document and the README, not lib/errors.ts. `npm run docs:error-codes`
 * writes them between the markers; lib/http/error-codes-doc.test.ts fails when they differ.
 */

export const START = "<!-- error-codes:start (npm run docs:error-codes; do not edit by hand) -->";
export const END = "<!-- error-codes:end -->";

interface ErrorEntry {
  status: number;
  retry: boolean;
  title: string;
}

/** The parts of the document the tables are made of (openApiDocument's shape, loosely). */
export interface DocumentedErrors {
  "x-error-table": Record<string, ErrorEntry>;
  "x-other-method-error-codes": string[];
  "x-unknown-path-error-codes": string[];
  paths: Record<string, Record<string, { "x-error-codes"?: string[] }>>;
}

const METHOD_ORDER = ["get", "post", "put", "patch", "delete"];

export function errorCodesMarkdown(doc: DocumentedErrors): string {
  const table = doc["x-error-table"];
  const byStatus = (a: string, b: string) => table[a]!.status - table[b]!.status || a.localeCompare(b);
  const codes = (list: string[]) =>
    [...list]
      .sort(byStatus)
      .map((c) => `\`${c}\` ${table[c]!.status}`)
      .join(", ");
  const routes = Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops)
      .filter(([method]) => METHOD_ORDER.includes(method))
      .sort(([a], [b]) => METHOD_ORDER.indexOf(a) - METHOD_ORDER.indexOf(b))
      .map(([method, op]) => `| \`${method.toUpperCase()} ${path}\` | ${codes(op["x-error-codes"] ?? [])} |`),
  );
  const meanings = Object.entries(table)
    .sort(([a], [b]) => byStatus(a, b))
    .map(([code, e]) => `| \`${code}\` | ${e.status} | ${e.retry ? "yes" : "no"} | ${e.title.replace(/\|/g, "\\|")} |`);
  return [
    START,
    "",
    "| route | codes it can answer, with their HTTP status |",
    "|---|---|",
    ...routes,
    `| any route, a method it does not take | ${codes(doc["x-other-method-error-codes"])} (with \`Allow\`) |`,
    `| an address under \`/api\` not above | ${codes(doc["x-unknown-path-error-codes"])} |`,
    "",
    "| code | status | retry | meaning |",
    "|---|---|---|---|",
    ...meanings,
    "",
    END,
  ].join("\n");
}

/** `readme` with its error-code block replaced by `block`; throws when the markers are missing. */
export function withErrorCodes(readme: string, block: string): string {
  const from = readme.indexOf(START);
  const to = readme.indexOf(END);
  if (from < 0 || to < from) throw new Error(`README.md: no ${START} ... ${END} block`);
  return readme.slice(0, from) + block + readme.slice(to + END.length);
}

/** The block as README.md holds it now. */
export function errorCodesBlockOf(readme: string): string {
  const from = readme.indexOf(START);
  const to = readme.indexOf(END);
  return from < 0 || to < from ? "" : readme.slice(from, to + END.length);
}
