import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * No import circles in the house, type-only and dynamic imports included: a circle means two files
 * each own part of the other, and the type or function belongs in one of them (ADR 18). ESLint's
 * import/no-cycle is not run: it saw runtime imports only, and took 60 % of the lint's time.
 */
const root = path.resolve(import.meta.dirname, "..");
const SOURCES = [
  "app",
  "components",
  "lib",
  "e2e",
  "scripts",
  "deploy",
  "clients/typescript/src",
  "proxy.ts",
  "proxy.test.ts",
  "instrumentation.ts",
];

function sourceFiles(entry: string): string[] {
  const full = path.join(root, entry);
  if (/\.tsx?$/.test(entry)) return [full];
  return readdirSync(full, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile() && /\.tsx?$/.test(d.name) && !d.parentPath.includes("node_modules"))
    .map((d) => path.join(d.parentPath, d.name));
}

const { config } = ts.readConfigFile(path.join(root, "tsconfig.json"), ts.sys.readFile);
const { options } = ts.parseJsonConfigFileContent(config, ts.sys, root);

/** Every file of ours that `file` imports, `import type` and dynamic `import()` included. */
function importsOf(file: string, ours: Set<string>): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
  return importedFiles
    .map((i) => ts.resolveModuleName(i.fileName, file, options, ts.sys).resolvedModule?.resolvedFileName)
    .filter((f): f is string => f !== undefined && ours.has(path.resolve(f)))
    .map((f) => path.resolve(f));
}

/** Strongly connected components of more than one file (Tarjan). */
function circles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(path.relative(root, w));
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return found;
}

describe("imports", () => {
  it("form no circles, type-only imports included", () => {
    const files = SOURCES.flatMap(sourceFiles);
    const ours = new Set(files.map((f) => path.resolve(f)));
    const graph = new Map([...ours].map((f) => [f, importsOf(f, ours)]));
    expect(graph.size).toBeGreaterThan(200);
    expect(circles(graph)).toEqual([]);
  });

  it("finds a circle made of type-only imports", () => {
    const graph = new Map([
      ["/a.ts", ["/b.ts"]],
      ["/b.ts", ["/c.ts"]],
      ["/c.ts", ["/a.ts"]],
      ["/d.ts", ["/a.ts"]],
    ]);
    expect(circles(graph).map((c) => c.length)).toEqual([3]);
  });
});
