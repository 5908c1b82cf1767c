import { afterEach, describe, expect, it } from "vitest";
import { createTestDb, type TestDb, testFlavors } from "@/lib/db/test-db";
import type { DbFlavor } from "@/lib/db/url";
import { ensureHumaidScheme } from "@/lib/events/schemes";
import { type BulkColumn, updateRows, updateRowsSql } from "./bulk-rows";

const PUBLISHED: BulkColumn[] = [
  { name: "providerHitId", type: "text" },
  { name: "status", type: "text" },
  { name: "publishedAt", type: "timestamp" },
];

let t: TestDb | null = null;
afterEach(async () => {
  await t?.cleanup();
  t = null;
});

async function draftHits(flavor: DbFlavor, n: number) {
  t = await createTestDb(flavor);
  const schemeId = await ensureHumaidScheme(t.db);
  const event = await t.db.event.create({ data: { slug: "e", name: "E", type: "flood", schemeId, provider: "mturk", locations: [], settings: {}, filters: {} } });
  await t.db.hit.createMany({
    data: Array.from({ length: n }, (_, i) => ({ id: `hit${String(i).padStart(4, "0")}`, eventId: event.id, seq: i + 1, provider: "mturk", uniqueRequestToken: `tok${i}`, maxAssignments: 3, rewardCents: 50, seed: i })),
  });
  return t.db;
}

describe.each(testFlavors())("updateRows on %s", (flavor) => {
  it("writes each row's own values, only where the condition holds, and returns the ids it changed", async () => {
    const db = await draftHits(flavor, 40);
    for (const id of ["hit0001", "hit0003"]) await db.hit.update({ where: { id }, data: { status: "published", providerHitId: `EARLIER-${id}` } });
    const at = new Date("2026-11-30T12:00:00.123Z");
    const rows = ["hit0000", "hit0001", "hit0002", "hit0003", "missing"].map((id) => [id, `P-${id}`, "published", at]);
    const changed = await updateRows(db, flavor, "Hit", PUBLISHED, rows, `T."status" = 'draft'`);
    expect(changed.sort()).toEqual(["hit0000", "hit0002"]);
    const hits = await db.hit.findMany({ where: { id: { in: ["hit0000", "hit0001", "hit0002", "hit0003", "hit0004"] } }, orderBy: { id: "asc" } });
    expect(hits.map((h) => [h.id, h.providerHitId, h.status, h.publishedAt?.toISOString() ?? null])).toEqual([
      ["hit0000", "P-hit0000", "published", at.toISOString()],
      ["hit0001", "EARLIER-hit0001", "published", null],
      ["hit0002", "P-hit0002", "published", at.toISOString()],
      ["hit0003", "EARLIER-hit0003", "published", null],
      ["hit0004", null, "draft", null],
    ]);
    // Without a condition every listed row changes.
    expect((await updateRows(db, flavor, "Hit", PUBLISHED, [["hit0004", "P4", "published", at]])).length).toBe(1);
  });
});

describe("updateRows on sqlite: the statement", () => {
  it("finds the rows by id, not by scanning what the condition selects (the query plan)", async () => {
    const db = await draftHits("sqlite", 5);
    const plan = await db.$queryRawUnsafe<Array<{ detail: string }>>(`EXPLAIN QUERY PLAN ${updateRowsSql("sqlite", "Hit", PUBLISHED, `T."status" = 'draft'`)}`, "[]");
    const details = plan.map((p) => p.detail);
    // The JSON rows drive the loop and each HIT is one lookup in the primary key's index.
    expect(details[0]).toMatch(/^SCAN x/);
    expect(details[1]).toMatch(/^SEARCH T USING (COVERING )?INDEX sqlite_autoindex_Hit_1 \(id=\?\)/);
  });
});
