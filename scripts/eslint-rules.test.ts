import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const eslint = new ESLint({ overrideConfigFile: "scripts/eslint.config.mjs" });

async function messagesFor(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: file });
  return result!.messages.map((m) => m.message);
}

describe("lint: provider codes stay in lib/pis", () => {
  it("refuses a provider status or error code above lib/pis", async () => {
    expect(
      await messagesFor("lib/checkout/example.ts", 'export const cancelled = (s: string) => s === "CANC";\n'),
    ).toEqual([expect.stringContaining("Provider status codes stay in lib/pis")]);
    expect(
      await messagesFor("components/example.ts", "export const funds = (c: number[]) => c.includes(20017);\n"),
    ).toEqual([expect.stringContaining("Provider error codes stay in lib/pis")]);
  });

  it("lets lib/pis read them", async () => {
    expect(
      await messagesFor(
        "lib/pis/example.ts",
        'export const cancelled = (s: string, c: number[]) => s === "CANC" || c.includes(21004);\n',
      ),
    ).toEqual([]);
  });

  it("does not take ordinary numbers and words for codes", async () => {
    expect(
      await messagesFor(
        "lib/checkout/example.ts",
        'export const x = (n: number) => n > 60000 || n === 2_000 || String(n) === "cancel";\n',
      ),
    ).toEqual([]);
  });
});
