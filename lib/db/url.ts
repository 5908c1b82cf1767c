import path from "node:path";
import { env } from "@/lib/config/env";

export type DbFlavor = "sqlite" | "postgres";

/** DATABASE_URL: a SQLite file under ./data/ by default (relative to the project root = the process cwd). */
export function databaseUrl(): string {
  return env().DATABASE_URL;
}

export function dbFlavor(url: string = databaseUrl()): DbFlavor {
  if (url.startsWith("postgres://") || url.startsWith("postgresql://")) return "postgres";
  if (url.startsWith("file:")) return "sqlite";
  throw new Error(`DATABASE_URL must start with file: (SQLite) or postgres(ql):// (PostgreSQL); got "${url.split(":")[0]}:…"`);
}

/** Absolute path of a SQLite file URL, resolved from the project root (cwd), as the Prisma CLI does. */
export function sqliteFilePath(url: string): string {
  const p = url.slice("file:".length).split("?")[0];
  return path.resolve(/*turbopackIgnore: true*/ process.cwd(), p);
}
