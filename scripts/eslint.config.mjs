import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

// Run with `--config scripts/eslint.config.mjs` from the repository root: the top level of the
// repository is kept to the folders design.md names, so tool configs live in scripts/.
const config = [
  ...nextVitals,
  ...nextTs,
  {
    ignores: [".next/**", "node_modules/**", ".data/**", ".ci-out/**", "test-results/**", "playwright-report/**", "next-env.d.ts", "lib/db/migrations/**"],
  },
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    // The merchant side talks to the sandbox only over HTTP, as it would to the real provider.
    files: ["app/**", "components/**", "lib/checkout/**", "lib/pis/**", "lib/http/**", "lib/db/**"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [{ group: ["**/sandbox/**", "@/lib/sandbox/*", "@/lib/sandbox"], message: "Merchant code reaches the sandbox only over HTTP." }] }],
    },
  },
  {
    // ...and the sandbox knows nothing of the merchant side, like a real provider.
    files: ["lib/sandbox/**"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [{ group: ["@/*", "../checkout/**", "../pis/**", "../db/**", "../http/**", "../env", "../../app/**", "../../components/**"], message: "The sandbox is a separate system: no imports from the merchant side." }] }],
    },
  },
];

export default config;
