// tsc rewrites the sources' "./x.ts" imports to "./x.js" in the JavaScript it writes, but not in
// the declarations; a consumer on an older TypeScript would refuse "./x.ts" there.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";

const dist = new URL("./dist/", import.meta.url);
for (const name of readdirSync(dist).filter((f) => f.endsWith(".d.ts"))) {
  const file = new URL(name, dist);
  const text = readFileSync(file, "utf8");
  writeFileSync(file, text.replace(/(from\s+"\.\/[\w-]+)\.ts"/g, '$1.js"'));
}
