/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native or Node-only packages stay outside the server bundle.
  serverExternalPackages: ["better-sqlite3", "@prisma/adapter-better-sqlite3", "pg", "@node-rs/argon2", "@aws-sdk/client-mturk"],
  poweredByHeader: false,
  // A type error in the app fails `next build`. The build checks the app only (tsconfig.build.json leaves out
  // tests, e2e and benchmarks): those are type-checked by `tsc --noEmit -p .` in `npm test`.
  typescript: { tsconfigPath: "tsconfig.build.json" },
  typedRoutes: false,
  experimental: {
    serverActions: { bodySizeLimit: "210mb" },
  },
};

export default nextConfig;
