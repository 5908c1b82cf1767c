// ESLint (flat config): Next.js core web vitals (React, hooks, a11y, Next rules) and typescript-eslint.
import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  globalIgnores([".next/**", "generated/**", "node_modules/**", "e2e/artifacts/**", ".tmp/**", "data/**", "dist/**", "next-env.d.ts"]),
]);
