import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { postgresSchemaOf } from "./postgres-schema.mjs";

describe("prisma/postgres/schema.prisma", () => {
  it("is what db:generate writes from the SQLite schema (no hand edits)", () => {
    const sqlite = fs.readFileSync("prisma/sqlite/schema.prisma", "utf8");
    expect(fs.readFileSync("prisma/postgres/schema.prisma", "utf8")).toBe(postgresSchemaOf(sqlite));
  });

  it("changes only the generator output and the datasource provider", () => {
    const out = postgresSchemaOf('// note\n\ngenerator client {\n  output = "../../generated/sqlite"\n}\n\ndatasource db {\n  provider = "sqlite"\n}\n\nmodel A {\n  id String @id // sqlite\n}\n');
    expect(out).toContain('output = "../../generated/postgres"');
    expect(out).toContain('provider = "postgresql"');
    expect(out).toContain("id String @id // sqlite");
    expect(out).not.toContain("// note");
    expect(() => postgresSchemaOf("model A {\n  id String @id\n}\n")).toThrow(/no sqlite generator/);
  });
});
