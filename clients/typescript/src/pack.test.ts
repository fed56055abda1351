import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const rootBin = fileURLToPath(new URL("../../../node_modules/.bin", import.meta.url));

describe("the published package", () => {
  it("holds only the build, README, LICENSE and package.json, and the build loads as ESM", () => {
    // Packed from a copy, so the build does not land in the work tree (lint and tsc read it).
    const dir = mkdtempSync(path.join(tmpdir(), "client-pack-"));
    try {
      cpSync(packageDir, dir, { recursive: true, filter: (f) => !f.includes(`${path.sep}dist`) });
      // prepack builds dist/ with tsc first: the list is what `npm publish` would upload.
      const out = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts=false"], {
        cwd: dir,
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
        env: { ...process.env, PATH: `${rootBin}${path.delimiter}${process.env.PATH}` },
      });
      const [report] = JSON.parse(out.slice(out.indexOf("["))) as { name: string; files: { path: string }[] }[];
      expect(report!.name).toBe("@bank-checkout/client");
      const files = report!.files.map((f) => f.path).sort();
      expect(files.filter((f) => !/^dist\/[\w-]+\.(js|d\.ts)$/.test(f))).toEqual([
        "LICENSE",
        "README.md",
        "package.json",
      ]);
      expect(files).toEqual(expect.arrayContaining(["dist/index.js", "dist/index.d.ts", "dist/schema.d.ts"]));
      expect(files.some((f) => f.includes(".test."))).toBe(false);
      // The sources import "./x.ts"; what is published must name the built files.
      for (const f of files.filter((f) => f.startsWith("dist/")))
        expect(readFileSync(path.join(dir, f), "utf8"), f).not.toMatch(/from\s+"\.[^"]*\.ts"/);

      const exported = execFileSync(
        process.execPath,
        [
          "--input-type=module",
          "-e",
          "const m = await import('./dist/index.js'); console.log(Object.keys(m).sort().join(' '))",
        ],
        { cwd: dir, encoding: "utf8" },
      );
      expect(exported.trim().split(" ")).toEqual(
        expect.arrayContaining([
          "BankCheckout",
          "BankCheckoutError",
          "NotificationVerificationError",
          "verifyNotification",
        ]),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
