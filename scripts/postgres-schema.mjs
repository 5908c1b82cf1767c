// prisma/postgres/schema.prisma is generated from prisma/sqlite/schema.prisma (the one to edit): Prisma fixes the
// database kind per schema file, and only the generator output and the datasource provider differ.
import fs from "node:fs";
import path from "node:path";

const HEADER = "// GENERATED from prisma/sqlite/schema.prisma by scripts/prisma-generate.mjs (npm run db:generate): edit that file.\n";

/** The PostgreSQL schema text for a SQLite schema text. */
export function postgresSchemaOf(sqlite) {
  const body = sqlite.replace(/^(\/\/[^\n]*\n)+\n?/, "");
  const out = body
    .replace(/(output\s*=\s*)"\.\.\/\.\.\/generated\/sqlite"/, '$1"../../generated/postgres"')
    .replace(/(provider\s*=\s*)"sqlite"/, '$1"postgresql"');
  if (out === body) throw new Error("prisma/sqlite/schema.prisma: no sqlite generator output or datasource provider to replace");
  return `${HEADER}\n${out}`;
}

/** Writes prisma/postgres/schema.prisma; returns whether it changed. */
export function writePostgresSchema(root) {
  const target = path.join(root, "prisma", "postgres", "schema.prisma");
  const next = postgresSchemaOf(fs.readFileSync(path.join(root, "prisma", "sqlite", "schema.prisma"), "utf8"));
  if (fs.existsSync(target) && fs.readFileSync(target, "utf8") === next) return false;
  fs.writeFileSync(target, next);
  return true;
}
