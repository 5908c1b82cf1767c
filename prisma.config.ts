import { fileURLToPath } from "node:url";
import { defineConfig } from "prisma/config";

// No native schema engine can be downloaded here: the CLI talks to a stand-in that runs Prisma's
// own WebAssembly schema engine through the driver adapters (scripts/prisma-schema-engine.mjs).
process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= fileURLToPath(
  new URL("./scripts/prisma-schema-engine.mjs", import.meta.url),
);

// Same default as DATABASE_URL in lib/config/env-schema.ts (the Prisma CLI loads this file on its own): a SQLite file under ./data/. postgres(ql):// switches to PostgreSQL.
const url = process.env.DATABASE_URL || "file:./data/accord.db";
const flavor = url.startsWith("postgres") ? "postgres" : "sqlite";

export default defineConfig({
  schema: `prisma/${flavor}/schema.prisma`,
  migrations: { path: `prisma/${flavor}/migrations` },
  datasource: { url },
});
