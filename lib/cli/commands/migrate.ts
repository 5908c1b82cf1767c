import { migrateDatabase } from "@/lib/db/migrate";
import { databaseUrl, dbFlavor } from "@/lib/db/url";

export async function run(argv: string[]): Promise<number> {
  if (argv.includes("--help")) {
    process.stdout.write("usage: accord migrate\n\nApplies prisma/<sqlite|postgres>/migrations to DATABASE_URL (default file:./data/accord.db).\n");
    return 0;
  }
  const url = databaseUrl();
  process.stdout.write(`migrating the ${dbFlavor(url) === "postgres" ? "PostgreSQL" : "SQLite"} database…\n`);
  await migrateDatabase({ url });
  process.stdout.write(`migrations applied (${dbFlavor(url)})\n`);
  return 0;
}
