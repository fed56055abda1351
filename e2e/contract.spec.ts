import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

/**
 * Runs after every other e2e project (see playwright.config.ts): each API answer the app servers
 * gave during the run (lib/http/contract-record.ts) is checked against the OpenAPI document the
 * app serves, so the document cannot drift from what the API really answers.
 */

interface Answer {
  method: string;
  path: string;
  status: number;
  contentType: string | null;
  body: string;
}

type Schema = Record<string, unknown>;
interface OpenApi {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema: Schema }> }> }>
  >;
  components: Schema;
}

function recordedAnswers(): Answer[] {
  const dir = process.env.E2E_CONTRACT_DIR!;
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith(".jsonl"))
    .flatMap((f) => readFileSync(path.join(dir, f), "utf8").split("\n").filter(Boolean))
    .map((line) => JSON.parse(line) as Answer);
}

/** "/api/checkouts/{checkoutId}/status" as a pattern for real paths. */
const templateOf = (paths: string[]) =>
  paths.map((p) => ({ p, re: new RegExp(`^${p.replace(/\{[^}]+\}/g, "[^/]+")}$`) }));

test("every API answer of the e2e run matches the OpenAPI document", async ({ request }) => {
  const doc = (await (await request.get("/api/openapi.json")).json()) as OpenApi;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  const templates = templateOf(Object.keys(doc.paths));
  const validators = new Map<string, ReturnType<typeof ajv.compile>>();
  const validatorFor = (key: string, schema: Schema) => {
    if (!validators.has(key)) validators.set(key, ajv.compile({ ...schema, components: doc.components }));
    return validators.get(key)!;
  };

  const answers = recordedAnswers().filter((a) => a.path.startsWith("/api/") && a.path !== "/api/openapi.json");
  expect(answers.length, "the e2e run recorded the API's answers").toBeGreaterThan(0);
  const problems: string[] = [];
  const covered = new Set<string>();
  const problem = validatorFor("Problem", { $ref: "#/components/schemas/Problem" });
  for (const a of answers) {
    const where = `${a.method} ${a.path} ${a.status}`;
    // OPTIONS, and a method the document does not list for a path: what the document says of them.
    if (a.method === "OPTIONS") {
      if (a.status !== 204) problems.push(`${where}: OPTIONS answers 204 with Allow`);
      continue;
    }
    if (a.status === 405) {
      const body = JSON.parse(a.body) as { code?: string };
      if (!problem(body) || body.code !== "method_not_allowed") problems.push(`${where}: not method_not_allowed`);
      continue;
    }
    const template = templates.find((t) => t.re.test(a.path))?.p;
    // An address the document does not list: what the document says of it.
    if (!template && a.status === 404) {
      const body = JSON.parse(a.body || "{}") as { code?: string };
      if (a.method !== "HEAD" && (!problem(body) || body.code !== "not_found"))
        problems.push(`${where}: not not_found`);
      continue;
    }
    const operation = template ? doc.paths[template]![a.method.toLowerCase()] : undefined;
    if (!template || !operation) {
      problems.push(`${where}: not in the document`);
      continue;
    }
    const response = operation.responses[String(a.status)];
    if (!response) {
      problems.push(`${where}: status not in the document`);
      continue;
    }
    if (!response.content && a.body === "") {
      covered.add(`${a.method} ${template} ${a.status}`);
      continue;
    }
    const mediaType = (a.contentType ?? "").split(";")[0]!.trim();
    const schema = response.content?.[mediaType]?.schema;
    if (!schema) {
      problems.push(`${where}: ${mediaType || "no content type"} not in the document`);
      continue;
    }
    const validate = validatorFor(`${template} ${a.method} ${a.status} ${mediaType}`, schema);
    // JSON answers are checked as parsed; a text answer (the activity's CSV) as its text.
    if (!validate(/json/.test(mediaType) ? JSON.parse(a.body) : a.body))
      problems.push(`${where}: ${ajv.errorsText(validate.errors)} in ${a.body.slice(0, 300)}`);
    covered.add(`${a.method} ${template} ${a.status}`);
  }
  console.log(
    `${answers.length} answers checked; ${covered.size} operation/status pairs:\n  ${[...covered].sort().join("\n  ")}`,
  );
  expect(problems).toEqual([]);
  // Every operation of the document answered at least once in the run, so none can drift unseen.
  const operations = Object.entries(doc.paths).flatMap(([p, ops]) =>
    Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`),
  );
  const seen = new Set([...covered].map((c) => c.split(" ").slice(0, 2).join(" ")));
  expect(
    operations.filter((o) => !seen.has(o)),
    "operations no e2e test called",
  ).toEqual([]);
});
