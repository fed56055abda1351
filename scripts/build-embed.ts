/** `npm run embed:build`: writes lib/embed/loader-bundle.ts from lib/embed/loader.ts. */
import { writeFileSync } from "node:fs";
import { loaderModule } from "../lib/embed/build-loader";

writeFileSync(new URL("../lib/embed/loader-bundle.ts", import.meta.url), loaderModule());
console.log("wrote lib/embed/loader-bundle.ts");
