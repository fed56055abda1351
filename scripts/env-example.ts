/** Writes .env.example from lib/env.ts (SETTING_DOCS); lib/env.test.ts fails when it is stale. */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { envExample } from "../lib/env";

const file = path.resolve(import.meta.dirname, "..", ".env.example");
writeFileSync(file, envExample());
console.log(`wrote ${path.relative(process.cwd(), file)}`);
