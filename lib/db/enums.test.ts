import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { findEnumLiterals } from "./enum-literals";

// Status values come from lib/db/enums.ts everywhere: no source file outside the tests compares, assigns or filters
// on a bare value of the schema's enumerations.
const ROOTS = ["lib", "app", "components", "scripts"];

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === "node_modules" ? [] : sources(p);
    return /\.(tsx?|mjs|js)$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [p] : [];
  });
}

describe("findEnumLiterals", () => {
  it("finds comparisons, assignments, filters and SQL on a bare enum value", () => {
    const sample = [
      'if (hit.status === "published") return;',
      'data: { status: "approved", role: "gold" },',
      'where: { tweet: { status: { not: "retired" } }, state: { in: ["queued", "running"] } },',
      "SUM(CASE WHEN a.\"status\" = 'rejected' THEN 1 ELSE 0 END)",
      "WHERE state IN ('queued', 'running')",
      'if ("mturk" === provider.kind) x();',
      'const active = ["published", "extended"].includes(h.status);',
      "function f({ providerStatus = \"Submitted\" }) {}",
      'kind?: "tweets" | "gold";',
      'if (isOneOf(t.status, ["judged", "accepted"])) n++;',
      'data: { status: cancelled ? "cancelled" : "failed", message },',
      "AND json_extract(\"data\", '$.status') IN ('Approved', 'Rejected') LIMIT 1",
    ].join("\n");
    expect(findEnumLiterals(sample).map((f) => `${f.line}:${f.field}=${f.value}`)).toEqual([
      "1:status=published",
      "2:status=approved",
      "2:role=gold",
      "3:status=retired",
      "3:state=queued",
      "3:state=running",
      "4:status=rejected",
      "5:state=queued",
      "5:state=running",
      "6:kind=mturk",
      "7:status=published",
      "7:status=extended",
      "8:providerStatus=Submitted",
      "9:kind=tweets",
      "10:status=judged",
      "10:status=accepted",
      "11:status=cancelled",
      "11:status=failed",
      "12:status=Approved",
      "12:status=Rejected",
    ]);
  });

  it("leaves constants, other words, comments and marked lines alone", () => {
    const sample = [
      "if (hit.status === HIT_STATUS.published) return;",
      "if (isOneOf(t.status, [TWEET_STATUS.judged, TWEET_STATUS.accepted])) n++;",
      'const s = { status: "ok", role: "admin", kind: "import" };',
      '// a comment saying status === "published"',
      'if (r.status === "rejected") throw r.reason; // enum-literal-ok: PromiseSettledResult',
      'const label = "published";',
      'const title = status === HIT_STATUS.approved ? "approved" : "open";',
    ].join("\n");
    expect(findEnumLiterals(sample)).toEqual([]);
  });
});

describe("enum literals in the source tree", () => {
  const files = ROOTS.flatMap((r) => sources(r));

  it("scans the source files", () => {
    expect(files.length).toBeGreaterThan(300);
    expect(files).toContain(path.join("lib", "campaign", "sync", "pass.ts"));
  });

  it("has no bare enum value outside the tests", () => {
    const found = files.flatMap((f) => findEnumLiterals(fs.readFileSync(f, "utf8")).map((l) => `${f}:${l.line}: ${l.field} "${l.value}" — ${l.text}`));
    expect(found).toEqual([]);
  });
});
