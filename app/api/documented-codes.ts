import { OTHER_METHOD_ERRORS, UNKNOWN_PATH_ERRORS, openApiDocument } from "@/lib/http/openapi";

/**
 * Tests only: what a route answered against the codes the OpenAPI document lists for it
 * (README "Error codes" is made from those lists), so a refusal a test meets that the document
 * does not name fails the suite. The e2e contract spec does the same for the e2e run's answers.
 */

type Operations = Record<string, Record<string, { "x-error-codes"?: string[] }>>;
let paths: Operations | undefined;

/** A path with its parameters' names left out: `/api/checkouts/{id}` and the document's `{checkoutId}` alike. */
const shape = (template: string) => template.replace(/\{[^}]+\}/g, "{}");
let byShape: Map<string, Operations[string]> | undefined;
const inDocument = (template: string) => {
  paths ??= openApiDocument("").paths as Operations;
  byShape ??= new Map(Object.entries(paths).map(([path, ops]) => [shape(path), ops]));
  return byShape.get(shape(template));
};

/**
 * "METHOD template: code (status)" when `res` is a problem answer whose code the document does
 * not list for that operation; undefined otherwise. Routes outside /api (pages' form posts) are
 * not in the document.
 */
export async function undocumentedCode(method: string, template: string, res: Response): Promise<string | undefined> {
  if (!template.startsWith("/api/") || !res.headers.get("content-type")?.startsWith("application/problem+json"))
    return undefined;
  const code = ((await res.clone().json()) as { code?: string }).code ?? "(none)";
  const path = inDocument(template);
  const operation = path?.[method.toLowerCase()];
  const listed = operation ? (operation["x-error-codes"] ?? []) : path ? OTHER_METHOD_ERRORS : UNKNOWN_PATH_ERRORS;
  return listed.includes(code as never) ? undefined : `${method} ${template}: ${code} (${res.status})`;
}

/**
 * A route module whose handlers (GET, POST, ...) note every answer, for `undocumentedCodes` to
 * check after the tests ran.
 */
export function watchedRoutes() {
  const answers: { method: string; template: string; res: Response }[] = [];
  type Handler = (req: Request, ctx: never) => Promise<Response>;
  return {
    watch<M extends object>(template: string, mod: M): M {
      return Object.fromEntries(
        Object.entries(mod).map(([name, value]) => [
          name,
          /^[A-Z]+$/.test(name) && typeof value === "function"
            ? async (req: Request, ctx: never) => {
                const res = await (value as Handler)(req, ctx);
                answers.push({ method: req.method, template, res: res.clone() });
                return res;
              }
            : value,
        ]),
      ) as M;
    },
    async undocumentedCodes(): Promise<string[]> {
      const found = await Promise.all(answers.map((a) => undocumentedCode(a.method, a.template, a.res)));
      return [...new Set(found.filter((f): f is string => f !== undefined))].sort();
    },
    get count() {
      return answers.length;
    },
  };
}
