import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

// Run with `--config scripts/eslint.config.mjs` from the repository root: the top level of the
// repository is kept to the folders design.md names, so tool configs live in scripts/.
/**
 * Provider codes (status codes such as RJCT or ACSC, error codes such as 21101) are read in
 * lib/pis only; everything above it speaks the checkout's own vocabulary (ADR 18).
 */
const PROVIDER_STATUS_CODES = "STRD|ACCC|ACCP|ACSC|ACSP|ACTC|ACWC|ACWP|RCVD|PDNG|RJCT|CANC|ACFC|PATC";
export const providerCodeRule = [
  "error",
  {
    selector: `Literal[value=/^(${PROVIDER_STATUS_CODES})$/i]`,
    message: "Provider status codes stay in lib/pis: use the normalised status or failure reason.",
  },
  {
    selector: "Literal[raw=/^2[01]\\d{3}$/]",
    message: "Provider error codes stay in lib/pis: use failureReasonOf or PisError's kind.",
  },
];

const config = [
  ...nextVitals,
  ...nextTs,
  {
    ignores: [
      "**/.next/**",
      "node_modules/**",
      ".data/**",
      ".ci-out/**",
      "test-results/**",
      "playwright-report/**",
      "next-env.d.ts",
      "lib/db/migrations/**",
      "clients/typescript/dist/**",
    ],
  },
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      // Import circles: scripts/import-cycles.test.ts (a superset of import/no-cycle, at a fraction of its time).
    },
  },
  {
    // The merchant side talks to the sandbox only over HTTP, as it would to the real provider.
    files: ["app/**", "components/**", "lib/checkout/**", "lib/pis/**", "lib/http/**", "lib/db/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/sandbox/**", "@/lib/sandbox/*", "@/lib/sandbox"],
              message: "Merchant code reaches the sandbox only over HTTP.",
            },
          ],
        },
      ],
    },
  },
  {
    files: [
      "app/**",
      "components/**",
      "lib/checkout/**",
      "lib/http/**",
      "lib/db/**",
      "lib/i18n/**",
      "lib/log/**",
      "proxy.ts",
    ],
    ignores: ["**/*.test.ts", "**/*.test.tsx", "**/*test-setup.ts", "**/test-*.ts"],
    rules: { "no-restricted-syntax": providerCodeRule },
  },
  {
    // ...and the sandbox knows nothing of the merchant side, like a real provider.
    files: ["lib/sandbox/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: [
                "@/*",
                "../checkout/**",
                "../pis/**",
                "../db/**",
                "../http/**",
                "../env",
                "../../app/**",
                "../../components/**",
              ],
              message: "The sandbox is a separate system: no imports from the merchant side.",
            },
          ],
        },
      ],
    },
  },
  {
    // The typed client runs on Node, edge runtimes and browsers: fetch and WebCrypto only, and it
    // is published alone, so nothing of the app either (ADR 31).
    files: ["clients/typescript/src/**"],
    ignores: ["**/*.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ["node:*"], message: "The client runs outside Node too: fetch and WebCrypto only." },
            { group: ["@/*", "../../../*", "../../../**"], message: "The client is its own package." },
          ],
        },
      ],
    },
  },
];

export default config;
