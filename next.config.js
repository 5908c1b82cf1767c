// Headers on every response; the pages' Content-Security-Policy comes per request from proxy.ts (with a nonce).
const securityHeaders = [
  { key: "X-Frame-Options", value: "DENY" },
  { key: "X-Content-Type-Options", value: "nosniff" },
  // Event slugs and search terms in URLs never travel to other sites.
  { key: "Referrer-Policy", value: "same-origin" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=()" },
];

/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native or Node-only packages stay outside the server bundle.
  serverExternalPackages: ["better-sqlite3", "@prisma/adapter-better-sqlite3", "pg", "@node-rs/argon2", "@aws-sdk/client-mturk"],
  poweredByHeader: false,
  async headers() {
    return [
      { source: "/:path*", headers: securityHeaders },
      // Route handlers (JSON, CSV, SSE) render nothing: a policy that allows nothing.
      { source: "/api/:path*", headers: [{ key: "Content-Security-Policy", value: "default-src 'none'; frame-ancestors 'none'; sandbox" }] },
    ];
  },
  // A type error in the app fails `next build`. The build checks the app only (tsconfig.build.json leaves out
  // tests, e2e and benchmarks): those are type-checked by `tsc --noEmit -p .` in `npm test`.
  typescript: { tsconfigPath: "tsconfig.build.json" },
  typedRoutes: false,
  experimental: {
    // Every server action (the public sign-in one too) reads at most 1 MB: files go to the upload route
    // (app/api/imports/route.ts), which checks the session before reading and streams to disk.
    serverActions: { bodySizeLimit: "1mb" },
  },
};

export default nextConfig;
