import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ENV } from "./env-schema";

/** The variable names in the first column of the first table under "## Configuration" in README.md. */
function readmeConfigurationNames(): string[] {
  const readme = fs.readFileSync("README.md", "utf8");
  const section = readme.slice(readme.indexOf("## Configuration\n"));
  const table = section.slice(section.indexOf("\n|")).split("\n\n")[0];
  return table
    .split("\n")
    .slice(3)
    .flatMap((row) => [...row.split("|")[1].matchAll(/`([A-Z0-9_]+)`/g)].map((m) => m[1]));
}

// The direct reads of process.env allowed outside lib/config/env.ts, and why.
const ALLOWED_READS: Record<string, string> = {
  "instrumentation.ts: process.env.NEXT_RUNTIME": "Next.js's own variable, inlined at build time",
  "lib/db/test-db.ts: process.env.DATABASE_URL_PG": "the test harness's PostgreSQL server",
  "lib/db/test-db.ts: process.env.ACCORD_TEST_PG_TEMPLATE": "the test harness's template database",
  "scripts/prisma-schema-engine.mjs: process.env.DATABASE_URL": "the Prisma CLI's schema engine stand-in, run by Prisma (prisma.config.ts)",
};

describe("the configuration module", () => {
  it("is documented: the README table names exactly the declared variables", () => {
    expect(readmeConfigurationNames().sort()).toEqual(Object.keys(ENV).sort());
  });

  it("is the only reader of the environment in the product's code", () => {
    const files = ["lib", "app", "components", "scripts"]
      .flatMap((dir) => fs.readdirSync(dir, { recursive: true, encoding: "utf8" }).map((f) => path.join(dir, f)))
      .concat(["instrumentation.ts", "next.config.js"])
      .filter((f) => /\.(ts|tsx|mjs|js)$/.test(f) && !/\.test\.tsx?$/.test(f) && !f.startsWith("scripts/bench/") && f !== "lib/config/env.ts");
    const reads: string[] = [];
    for (const file of files) {
      const text = fs.readFileSync(file, "utf8");
      // A read of one variable: process.env.NAME or process.env["NAME"], not an assignment (setting a child's env).
      for (const m of text.matchAll(/process\.env(?:\.([A-Za-z_][A-Za-z0-9_]*)\b|\[\s*["'`]?([^\]"'`]*))(?!\s*(?:\?\?|\|\|)?=[^=])/g)) {
        const read = `${file}: process.env.${m[1] ?? m[2]}`;
        if (!(read in ALLOWED_READS)) reads.push(read);
      }
    }
    expect(reads).toEqual([]);
  });
});
