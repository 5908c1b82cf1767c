/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native or Node-only packages stay outside the server bundle.
  serverExternalPackages: ["better-sqlite3", "@prisma/adapter-better-sqlite3", "pg", "@node-rs/argon2", "@aws-sdk/client-mturk"],
  poweredByHeader: false,
  // `npm test` (and CI) type-check the whole project with tsc, tests included; `npm start` should not fail
  // to serve because a test file has a type error.
  typescript: { ignoreBuildErrors: true },
  typedRoutes: false,
  experimental: {
    serverActions: { bodySizeLimit: "210mb" },
  },
};

export default nextConfig;
