// ESLint (flat config): Next.js core web vitals (React, hooks, a11y, Next rules), ESLint's recommended rules and
// typescript-eslint strict for TypeScript. Non-null assertions stay allowed: the numeric kernels index typed arrays
// under noUncheckedIndexedAccess, where `!` states a bound the loop already checks.
import { defineConfig, globalIgnores } from "eslint/config";
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";
import layers from "./eslint/layers.mjs";

export default defineConfig([
  { linterOptions: { reportUnusedDisableDirectives: "error" } },
  ...nextVitals,
  ...nextTs,
  {
    files: ["**/*.{ts,tsx}"],
    extends: [js.configs.recommended, tseslint.configs.strict],
    rules: {
      "@typescript-eslint/no-non-null-assertion": "off",
      // Records kept as JSON (simulator state, crowd records) delete keys by design; a Map would not serialise.
      "@typescript-eslint/no-dynamic-delete": "off",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", ignoreRestSiblings: true }],
    },
  },
  // Dependencies point one way: app → components → lib features → lib platform (eslint/layers.mjs).
  ...layers,
  globalIgnores([".next/**", "generated/**", "node_modules/**", "e2e/artifacts/**", ".tmp/**", "data/**", "dist/**", "next-env.d.ts"]),
]);
