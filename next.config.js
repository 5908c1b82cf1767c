// Headers on every response (one list with the request guard's answers, lib/server/fixed-headers.mjs); the pages'
// Content-Security-Policy comes per request from proxy.ts (with a nonce).
import { DEFAULT_MAX_BODY_BYTES } from "./lib/server/body-limits.mjs";
import { NOTHING_RENDERED_CSP, SECURITY_HEADERS } from "./lib/server/fixed-headers.mjs";

/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native or Node-only packages stay outside the server bundle.
  serverExternalPackages: ["better-sqlite3", "@prisma/adapter-better-sqlite3", "pg", "@node-rs/argon2", "@aws-sdk/client-mturk"],
  poweredByHeader: false,
  async headers() {
    return [
      { source: "/:path*", headers: [...SECURITY_HEADERS] },
      // Route handlers (JSON, CSV, SSE) render nothing: a policy that allows nothing.
      { source: "/api/:path*", headers: [{ key: "Content-Security-Policy", value: NOTHING_RENDERED_CSP }] },
    ];
  },
  // A type error in the app fails `next build`. The build checks the app only (tsconfig.build.json leaves out
  // tests, e2e and benchmarks): those are type-checked by `tsc --noEmit -p .` in `npm test`.
  typescript: { tsconfigPath: "tsconfig.build.json" },
  typedRoutes: false,
  experimental: {
    // Every server action (the public sign-in one too) reads at most 1 MB: files go to the upload route
    // (app/api/imports/route.ts), which checks the session before reading and streams to disk. The request guard
    // (scripts/request-guard.mjs) refuses larger bodies before Next.js sees them; these are the same limits inside.
    serverActions: { bodySizeLimit: DEFAULT_MAX_BODY_BYTES },
    // proxy.ts's copy of a body: never more than the guard lets through (past it Next.js would read on and cut).
    proxyClientMaxBodySize: DEFAULT_MAX_BODY_BYTES,
  },
};

export default nextConfig;
