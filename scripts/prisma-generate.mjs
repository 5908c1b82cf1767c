#!/usr/bin/env node
// Writes prisma/postgres/schema.prisma from the SQLite schema, then generates both Prisma clients (generated/sqlite
// and generated/postgres). Runs at `npm install` and as `npm run db:generate`. The Prisma CLI reads prisma.config.ts,
// which picks the schema from DATABASE_URL's scheme.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import path from "node:path";
import { writePostgresSchema } from "./postgres-schema.mjs";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const prisma = path.join(root, "node_modules", "prisma", "build", "index.js");
if (writePostgresSchema(root)) console.log("accord: wrote prisma/postgres/schema.prisma from prisma/sqlite/schema.prisma");
for (const url of ["file:./data/accord.db", "postgresql://generate@127.0.0.1:5432/generate"]) {
  execFileSync(process.execPath, [prisma, "generate"], {
    cwd: root,
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, DATABASE_URL: url, PRISMA_HIDE_UPDATE_MESSAGE: "1" },
  });
}
console.log("accord: generated the Prisma clients for SQLite and PostgreSQL");
