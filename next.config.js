/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native or Node-only packages stay outside the server bundle.
  serverExternalPackages: ["better-sqlite3", "@prisma/adapter-better-sqlite3", "pg", "@node-rs/argon2", "@aws-sdk/client-mturk"],
  poweredByHeader: false,
  typedRoutes: false,
  experimental: {
    serverActions: { bodySizeLimit: "210mb" },
  },
};

export default nextConfig;
